/**
 * The waveform of a chapter's recording, in the import preview (docs/import.md, "One recording of the
 * whole chapter"): its segments, each labelled with its phrase and played by a click, what lies before and
 * after the text shaded, and every boundary (the text's start, the cuts, its end) a handle to drag. The
 * segment the author is looking at (an unsure one, docs/alignment.md) is marked and scrolled to. wavesurfer.js
 * with its regions plugin draws it; the server's peaks (GET admin/import/{id}/peaks) stand in for
 * decoding, which a 500 MB recording would not survive in a browser, and the page's <audio> plays the
 * signed preview URL itself (the pages' CSP allows no blob: media). Each handle is also a slider for the
 * keyboard; the table's typed times remain the other way to move a cut.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import type WaveSurfer from 'wavesurfer.js';
import type RegionsPlugin from 'wavesurfer.js/dist/plugins/regions.esm.js';
import type { Region } from 'wavesurfer.js/dist/plugins/regions.esm.js';
import { api, errorMessage } from '../../lib/api';
import type { RecordingPeaksResponse } from '../../../server/publishing/imports/imports.dto';
import { onAppearance } from '../../lib/appearance';
import { tokenValue } from '../../lib/ui/tokens';
import {
  clampBound,
  handleSlider,
  HANDLE_COLOR,
  OUTSIDE_COLOR,
  outsideLabel,
  seconds,
  segmentColor,
  segmentLabel,
} from './waveform-regions';

/** A handle's keyboard steps: an arrow moves it 50 ms, Page Up and Page Down a second. */
const STEP_MS = 50;
const PAGE_MS = 1000;
/** A moved handle is saved once the keys rest this long. */
const KEY_SAVE_DELAY_MS = 700;
const ZOOMS = [0, 20, 50, 100, 200];
/** Zoomed this far (px a second) to show one segment of a long recording. */
const FOCUS_ZOOM = 50;
/** Recordings longer than this are zoomed in on the segment looked at. */
const FOCUS_ZOOM_AFTER_MS = 60_000;

interface Props {
  importId: string;
  /** The recording's signed preview URL. */
  url: string;
  durationMs: number;
  /**
   * The boundaries as the page holds them (typed or moved), in ms: where the text starts, the cuts, where
   * it ends. Segment n lies between bounds[n] and bounds[n + 1].
   */
  bounds: number[];
  /** Each segment's phrase, shown on it. */
  texts: string[];
  /** Each segment's confidence when aligned, and the line under which it is unsure. */
  confidence: Array<number | undefined>;
  unsureBelow: number | null;
  /** The segment the author is looking at (marked, and scrolled to), if any. */
  current: number | null;
  /** The page's player, shared with the table's Play buttons. */
  media: RefObject<HTMLAudioElement | null>;
  /** A boundary moved here: the page's bounds follow at once. */
  onMove: (bounds: number[]) => void;
  /** A move ended (a drop, or the keys at rest): saved through the boundaries API. */
  onSave: (bounds: number[]) => void;
  /** Plays one segment, from and to these times in ms. */
  onPlay: (startMs: number, endMs: number) => void;
}

interface Drawn {
  wavesurfer: WaveSurfer;
  regions: RegionsPlugin;
  segments: Region[];
  /** Before the text and after it. */
  outside: [Region, Region] | null;
  handles: Region[];
  sliders: HTMLElement[];
}

export function WaveformEditor(props: Props) {
  const { importId, url, durationMs, bounds, media, current } = props;
  const container = useRef<HTMLDivElement>(null);
  const drawn = useRef<Drawn | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [failure, setFailure] = useState('');
  const [zoom, setZoom] = useState(0);
  // The latest props, for wavesurfer's callbacks, which outlive any one render.
  const latest = useRef(props);
  latest.current = props;
  const keySave = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    let cancelled = false;
    let made: Drawn | null = null;
    void (async () => {
      try {
        const [{ data: peaks }, { default: WaveSurferClass }, { default: Regions }] = await Promise.all([
          api<{ data: RecordingPeaksResponse }>(`admin/import/${importId}/peaks`),
          // Loaded only for a recording: importing clips never downloads it.
          import('wavesurfer.js'),
          import('wavesurfer.js/dist/plugins/regions.esm.js'),
        ]);
        if (cancelled || !container.current || !media.current) return;
        const regions = Regions.create();
        const wavesurfer = WaveSurferClass.create({
          container: container.current,
          media: media.current,
          url,
          peaks: [Float32Array.from(peaks.data, (value) => value / 127)],
          duration: durationMs / 1000,
          height: 112,
          normalize: true,
          // Drawn on a canvas, which takes colours, not var(): the tokens' values.
          waveColor: tokenValue('--line-strong'),
          progressColor: tokenValue('--brand'),
          cursorColor: tokenValue('--brand-dark'),
          // A click plays its segment (below) rather than seeking.
          interact: false,
          plugins: [regions],
        });
        made = { wavesurfer, regions, segments: [], outside: null, handles: [], sliders: [] };
        // The canvas keeps the colours it was given: drawn again in the new theme's.
        onAppearance(
          () =>
            wavesurfer.setOptions({
              waveColor: tokenValue('--line-strong'),
              progressColor: tokenValue('--brand'),
              cursorColor: tokenValue('--brand-dark'),
            }),
          { now: false },
        );
        drawn.current = made;
        // Regions made before the duration is known would all sit at 0: drawn once it is ready.
        if (!wavesurfer.getDecodedData())
          await new Promise((resolve, reject) => {
            wavesurfer.once('ready', resolve);
            wavesurfer.once('error', reject);
          });
        if (cancelled) return;
        draw(made);
        setState('ready');
      } catch (problem) {
        if (cancelled) return;
        setFailure(errorMessage(problem));
        setState('failed');
      }
    })();
    return () => {
      cancelled = true;
      if (keySave.current) clearTimeout(keySave.current);
      made?.wavesurfer.destroy();
      drawn.current = null;
    };
    // Drawn once per import: later cuts move the regions (below) rather than drawing again.
  }, [importId]);

  /** The segments, what lies outside the text, and a handle per boundary, with their events. */
  function draw(target: Drawn) {
    const { regions } = target;
    const at = latest.current.bounds;
    const last = at.length - 1;
    const shade = (start: number, end: number) =>
      regions.addRegion({
        start: start / 1000,
        end: end / 1000,
        drag: false,
        resize: false,
        color: OUTSIDE_COLOR,
        content: outsideLabel(),
      });
    target.outside = [shade(0, at[0]), shade(at[last], durationMs)];
    target.segments = at.slice(0, -1).map((start, i) =>
      regions.addRegion({
        start: start / 1000,
        end: at[i + 1] / 1000,
        drag: false,
        resize: false,
        color: segmentColor(i, latest.current),
        content: segmentLabel(i, latest.current.texts[i]),
      }),
    );
    target.handles = at.map((bound, i) => {
      const slider = handleElement(i, last);
      target.sliders[i] = slider;
      const handle = regions.addRegion({
        start: bound / 1000,
        drag: true,
        resize: false,
        color: HANDLE_COLOR,
        content: slider.parentElement!,
      });
      if (handle.element) handle.element.style.zIndex = '3';
      return handle;
    });
    syncSliders(target, at);

    regions.on('region-clicked', (region, event) => {
      const index = target.segments.indexOf(region);
      if (index < 0) return;
      event.stopPropagation();
      const now = latest.current.bounds;
      latest.current.onPlay(now[index], now[index + 1]);
    });
    // While a handle is dragged, it stays between its neighbours and the regions beside it follow it.
    regions.on('region-update', (region) => {
      const index = target.handles.indexOf(region);
      if (index < 0) return;
      const ms = clampBound(index, region.start * 1000, latest.current.bounds, durationMs);
      if (Math.abs(ms - region.start * 1000) > 0.5) region.setOptions({ start: ms / 1000 });
      if (index > 0) target.segments[index - 1].setOptions({ end: ms / 1000 });
      else target.outside?.[0].setOptions({ end: ms / 1000 });
      if (index < target.segments.length) target.segments[index].setOptions({ start: ms / 1000 });
      else target.outside?.[1].setOptions({ start: ms / 1000 });
    });
    regions.on('region-updated', (region) => {
      const index = target.handles.indexOf(region);
      if (index < 0) return;
      const now = latest.current.bounds;
      const moved = now.map((bound, i) =>
        i === index ? Math.round(clampBound(index, region.start * 1000, now, durationMs)) : bound,
      );
      latest.current.onMove(moved);
      latest.current.onSave(moved);
    });
  }

  /** A handle's slider (waveform-regions.ts), moved by the arrow keys and Page Up and Page Down. */
  function handleElement(index: number, last: number): HTMLElement {
    const slider = handleSlider(index, last, durationMs);
    slider.addEventListener('keydown', (event) => {
      const step = { ArrowLeft: -STEP_MS, ArrowDown: -STEP_MS, ArrowRight: STEP_MS, ArrowUp: STEP_MS }[
        event.key
      ];
      const page = { PageDown: -PAGE_MS, PageUp: PAGE_MS }[event.key];
      const delta = step ?? page;
      if (delta === undefined) return;
      event.preventDefault();
      const now = latest.current.bounds;
      const moved = now.map((bound, i) =>
        i === index ? Math.round(clampBound(index, bound + delta, now, durationMs)) : bound,
      );
      latest.current.onMove(moved);
      if (keySave.current) clearTimeout(keySave.current);
      keySave.current = setTimeout(() => latest.current.onSave(latest.current.bounds), KEY_SAVE_DELAY_MS);
    });
    return slider;
  }

  function syncSliders(target: Drawn, now: number[]) {
    now.forEach((bound, i) => {
      const slider = target.sliders[i];
      slider?.setAttribute('aria-valuenow', String(bound));
      slider?.setAttribute('aria-valuetext', seconds(bound));
    });
  }

  // Boundaries moved elsewhere (typed, stepped, saved, or by a key here): the regions follow.
  useEffect(() => {
    const target = drawn.current;
    if (!target || target.handles.length !== bounds.length) return;
    target.handles.forEach((handle, i) => {
      if (Math.abs(handle.start * 1000 - bounds[i]) > 0.5) handle.setOptions({ start: bounds[i] / 1000 });
    });
    target.segments.forEach((segment, i) =>
      segment.setOptions({ start: bounds[i] / 1000, end: bounds[i + 1] / 1000 }),
    );
    target.outside?.[0].setOptions({ start: 0, end: bounds[0] / 1000 });
    target.outside?.[1].setOptions({ start: bounds[bounds.length - 1] / 1000, end: durationMs / 1000 });
    syncSliders(target, bounds);
  }, [bounds, durationMs, state]);

  // The segment looked at: marked, and scrolled to; a long recording is zoomed in on it when the author
  // moves to another segment (after which Zoom out is theirs to use).
  const shown = useRef<number | null>(null);
  useEffect(() => {
    const target = drawn.current;
    if (!target || state !== 'ready') return;
    target.segments.forEach((segment, i) => segment.setOptions({ color: segmentColor(i, latest.current) }));
    if (current === null || !target.segments[current] || shown.current === current) return;
    if (durationMs > FOCUS_ZOOM_AFTER_MS && zoom === 0) return setZoom(FOCUS_ZOOM);
    shown.current = current;
    // After the zoom effect below has drawn the waveform at its new width.
    const at = Math.max(0, target.segments[current].start - 1);
    setTimeout(() => drawn.current?.wavesurfer.setScrollTime(at), 0);
  }, [current, state, zoom]);

  useEffect(() => {
    const target = drawn.current;
    if (!target || state !== 'ready') return;
    target.wavesurfer.zoom(zoom);
    // Zoomed in, the waveform scrolls: its scroller takes the focus, so the keyboard can scroll it too.
    const scroller = target.wavesurfer.getWrapper().parentElement;
    if (scroller) {
      if (zoom > 0) {
        scroller.tabIndex = 0;
        scroller.setAttribute('role', 'group');
        scroller.setAttribute('aria-label', 'Waveform, scrolled sideways');
      } else {
        scroller.removeAttribute('tabindex');
        scroller.removeAttribute('role');
        scroller.removeAttribute('aria-label');
      }
    }
  }, [zoom, state]);

  const zoomAt = ZOOMS.indexOf(zoom);
  return (
    <figure className="waveform-editor" aria-labelledby="waveform-caption">
      <figcaption id="waveform-caption">
        The recording, cut into {bounds.length - 1} segments, each labelled with its phrase; what lies before
        the text ([) and after it (]) is shaded and left out. Click a segment to hear it; drag a handle, or
        focus it and use the arrow keys (50 ms) or Page Up and Page Down (1 s), to move that boundary. Moves
        are saved at once. The table below gives the same times to type.
      </figcaption>
      {state === 'loading' && <p role="status">Drawing the waveform…</p>}
      {state === 'failed' && (
        <p className="form-alert" role="alert">
          The waveform could not be drawn: {failure} The times in the table below still work.
        </p>
      )}
      <div className="waveform" ref={container} />
      {state === 'ready' && (
        <p className="waveform-zoom">
          <button type="button" onClick={() => setZoom(ZOOMS[zoomAt - 1])} disabled={zoomAt <= 0}>
            Zoom out
          </button>
          <button
            type="button"
            onClick={() => setZoom(ZOOMS[zoomAt + 1])}
            disabled={zoomAt >= ZOOMS.length - 1}
          >
            Zoom in
          </button>
        </p>
      )}
    </figure>
  );
}
