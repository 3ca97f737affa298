// The review's limits, read by the service that applies them and by the API's description.
/** New cards a member meets in a day, at most (Anki's default). */
export const NEW_PER_DAY = 20;
/** Due cards in one answer of the queue, at most (Anki's daily review limit); `due_count` counts them all. */
export const MAX_DUE = 200;
/** How far `GET user/review/ahead` looks by default, and at most (days of 24 hours). */
export const AHEAD_DAYS = 7;
/**
 * Cards in one answer of `GET user/review/ahead`, at most: enough for a week of one book's reviews (the
 * queue gives MAX_DUE due cards and NEW_PER_DAY new ones a day), and a bound on the clips a device fetches
 * at once.
 */
export const MAX_AHEAD = 500;
