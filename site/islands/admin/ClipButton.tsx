/**
 * A clip's Play/Stop button for the admin lists (the Phrase List, the Book List), with its length when
 * known. Every button of the page shares one audio element, made on the first click: a 300-phrase
 * chapter loads no clip until one is played, and starting one stops the other. A native player per row
 * would either load every clip (preload) or show 0:00 / 0:00 until played (docs/product.md, the Phrase List).
 */
import { useEffect, useState } from 'react';
import { formatDuration } from '../../lib/admin';
import { Icon } from '../shared/Icon';

type Listener = (src: string | null) => void;
const listeners = new Set<Listener>();
let audio: HTMLAudioElement | null = null;
/** The clip that is sounding now (set on the `playing` event, so the button tells the truth). */
let sounding: string | null = null;
/** How many buttons of each clip are on the page: the last one going (a search, a deleted row) stops it. */
const mounted = new Map<string, number>();

function tell(src: string | null): void {
  sounding = src;
  for (const listener of listeners) listener(src);
}

function shared(): HTMLAudioElement {
  if (audio) return audio;
  audio = new Audio();
  audio.preload = 'auto';
  audio.addEventListener('playing', () => tell(audio!.getAttribute('src')));
  for (const stop of ['pause', 'ended', 'error', 'emptied'] as const)
    audio.addEventListener(stop, () => tell(null));
  return audio;
}

function toggle(src: string): void {
  const player = shared();
  if (sounding === src || (!player.paused && player.getAttribute('src') === src)) {
    player.pause();
    return;
  }
  player.pause();
  player.setAttribute('src', src);
  player.currentTime = 0;
  player.play().catch(() => tell(null));
}

interface Props {
  src: string;
  /** What the clip is, for the button's name: "phrase 3" makes "Play phrase 3". */
  name: string;
  durationMs?: number | null;
}

export function ClipButton({ src, name, durationMs }: Props) {
  // A button drawn again while its clip sounds (the list re-rendered) says so from the start.
  const [playing, setPlaying] = useState(() => sounding === src);
  useEffect(() => {
    const listener: Listener = (now) => setPlaying(now === src);
    listeners.add(listener);
    mounted.set(src, (mounted.get(src) ?? 0) + 1);
    setPlaying(sounding === src);
    return () => {
      listeners.delete(listener);
      const left = (mounted.get(src) ?? 1) - 1;
      if (left > 0) mounted.set(src, left);
      else {
        mounted.delete(src);
        // No button is left to stop it: a clip must not go on sounding from a row that is gone.
        if (audio && audio.getAttribute('src') === src) audio.pause();
      }
    };
  }, [src]);
  return (
    <span className="clip-player">
      <button
        type="button"
        className="icon-button clip-button"
        aria-label={`${playing ? 'Stop' : 'Play'} ${name}`}
        data-playing={playing || undefined}
        onClick={() => toggle(src)}
      >
        <Icon name={playing ? 'pause' : 'play'} />
      </button>
      {durationMs != null && durationMs > 0 && (
        <span className="clip-length">
          <span className="visually-hidden">Length </span>
          {formatDuration(durationMs)}
        </span>
      )}
    </span>
  );
}
