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
  const [playing, setPlaying] = useState(false);
  useEffect(() => {
    const listener: Listener = (now) => setPlaying(now === src);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
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
