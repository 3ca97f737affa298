/** One phrase on screen: from `startUs` to `endUs` of its chapter. */
export interface Cue {
  startUs: number;
  endUs: number;
  text: string;
}

/** Cues back to back: each phrase starts where the previous one's decoded clip ended. STUB: helper A. */
export function cuesOf(texts: readonly string[], lengthsUs: readonly number[]): Cue[] {
  throw new Error(`not built yet: ${texts.length} ${lengthsUs.length}`);
}

/** WebVTT (one cue per phrase). STUB: helper A. */
export function toVtt(cues: readonly Cue[]): string {
  throw new Error(`not built yet: ${cues.length}`);
}

/** LRC (one timed line per phrase, centiseconds), with its title, artist and language tags. STUB: helper A. */
export function toLrc(cues: readonly Cue[], tags: { title: string; artist: string; language: string | null }): string {
  throw new Error(`not built yet: ${cues.length} ${tags.title}`);
}
