/** The minute since 1970 a moment falls in: the replay ranking's unit (see the ListeningReceivedMinute migration). */
export const receivedMinuteOf = (at: Date): number => Math.floor(at.getTime() / 60_000);
