/**
 * The reader on the system's own media controls (the Media Session API): the keyboard's media keys, a
 * headset's buttons, the lock screen. They play, pause and step as the player bar does, and show what
 * plays. Browsers without the API simply go without.
 */

export interface MediaActions {
  play: () => void;
  pause: () => void;
  previous: () => void;
  next: () => void;
}

export function wireMediaSession(actions: MediaActions): void {
  const session = navigator.mediaSession;
  if (!session) return;
  session.setActionHandler('play', actions.play);
  session.setActionHandler('pause', actions.pause);
  session.setActionHandler('previoustrack', actions.previous);
  session.setActionHandler('nexttrack', actions.next);
}

/** What the system shows as playing: the phrase, its book and chapter. */
export function showOnMediaSession(metadata: MediaMetadataInit): void {
  if (navigator.mediaSession && typeof MediaMetadata !== 'undefined')
    navigator.mediaSession.metadata = new MediaMetadata(metadata);
}
