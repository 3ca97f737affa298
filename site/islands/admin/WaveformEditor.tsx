/**
 * The waveform of a chapter's recording, in the import preview (docs/import.md, "One recording of the
 * whole chapter"): its segments, each played by a click, and its cuts as handles to drag. wavesurfer.js
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
import type { RecordingPeaksResponse } from '../../../server/imports/imports.dto';

/** The shortest segment the server takes (silence-split.ts); a handle stops this close to its neighbours. */
const MIN_SEGMENT_MS = 50;
/** A handle's keyboard steps: an arrow moves it 50 ms, Page Up and Page Down a second. */
const STEP_MS = 50;
const PAGE_MS = 1000;
/** A moved handle is saved once the keys rest this long. */
const KEY_SAVE_DELAY_MS = 700;
const ZOOMS = [0, 20, 50, 100, 200];

const SEGMENT_COLORS = ['rgba(29, 78, 216, 0.07)', 'rgba(29, 78, 216, 0.16)'];
const HANDLE_COLOR = '#1e3a8a';

interface Props {
  importId: string;
  /** The recording's signed preview URL. */
  url: string;
  durationMs: number;
  /** The cuts as the page holds them (typed or moved), in ms. */
  cuts: number[];
  /** The page's player, shared with the table's Play buttons. */
  media: RefObject<HTMLAudioElement | null>;
  /** A cut moved here: the page's cuts follow at once. */
  onMove: (cuts: number[]) => void;
  /** A move ended (a drop, or the keys at rest): saved through the boundaries API. */
  onSave: (cuts: number[]) => void;
  /** Plays one segment, from and to these times in ms. */
  onPlay: (startMs: number, endMs: number) => void;
}

interface Drawn {
  wavesurfer: WaveSurfer;
  regions: RegionsPlugin;
  segments: Region[];
  handles: Region[];
  sliders: HTMLElement[];
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(3)} s`;

export function WaveformEditor(props: Props) {
  const { importId, url, durationMs, cuts, media } = props;
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
          waveColor: '#6b7280',
          progressColor: '#1d4ed8',
          cursorColor: HANDLE_COLOR,
          // A click plays its segment (below) rather than seeking.
          interact: false,
          plugins: [regions],
        });
        made = { wavesurfer, regions, segments: [], handles: [], sliders: [] };
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

  /** The segments and handles for the current cuts, with their events. */
  function draw(target: Drawn) {
    const { regions } = target;
    const current = latest.current.cuts;
    const bounds = [0, ...current, durationMs];
    target.segments = bounds.slice(0, -1).map((start, i) =>
      regions.addRegion({
        start: start / 1000,
        end: bounds[i + 1] / 1000,
        drag: false,
        resize: false,
        color: SEGMENT_COLORS[i % 2],
        content: segmentLabel(i + 1),
      }),
    );
    target.handles = current.map((cut, i) => {
      const slider = handleElement(i);
      target.sliders[i] = slider;
      const handle = regions.addRegion({
        start: cut / 1000,
        drag: true,
        resize: false,
        color: HANDLE_COLOR,
        content: slider.parentElement!,
      });
      if (handle.element) handle.element.style.zIndex = '3';
      return handle;
    });
    syncSliders(target, current);

    regions.on('region-clicked', (region, event) => {
      const index = target.segments.indexOf(region);
      if (index < 0) return;
      event.stopPropagation();
      const at = [0, ...latest.current.cuts, durationMs];
      latest.current.onPlay(at[index], at[index + 1]);
    });
    // While a handle is dragged, it stays between its neighbours and its two segments follow it.
    regions.on('region-update', (region) => {
      const index = target.handles.indexOf(region);
      if (index < 0) return;
      const ms = clampCut(index, region.start * 1000, latest.current.cuts);
      if (Math.abs(ms - region.start * 1000) > 0.5) region.setOptions({ start: ms / 1000 });
      target.segments[index].setOptions({ end: ms / 1000 });
      target.segments[index + 1].setOptions({ start: ms / 1000 });
    });
    regions.on('region-updated', (region) => {
      const index = target.handles.indexOf(region);
      if (index < 0) return;
      const moved = latest.current.cuts.map((cut, i) =>
        i === index ? Math.round(clampCut(index, region.start * 1000, latest.current.cuts)) : cut,
      );
      latest.current.onMove(moved);
      latest.current.onSave(moved);
    });
  }

  /** A handle's slider, for the keyboard and assistive technology; the grip a pointer drags. */
  function handleElement(index: number): HTMLElement {
    const wrapper = document.createElement('div');
    Object.assign(wrapper.style, { position: 'relative', left: '-13px', top: '0' });
    const slider = document.createElement('div');
    slider.setAttribute('part', 'cut-handle');
    slider.setAttribute('role', 'slider');
    slider.tabIndex = 0;
    slider.setAttribute('aria-label', `Start of segment ${index + 2}`);
    slider.setAttribute('aria-valuemin', '0');
    slider.setAttribute('aria-valuemax', String(durationMs));
    slider.textContent = String(index + 2);
    Object.assign(slider.style, {
      width: '24px',
      height: '24px',
      borderRadius: '12px',
      background: HANDLE_COLOR,
      color: '#ffffff',
      font: '600 12px/24px system-ui, sans-serif',
      textAlign: 'center',
      cursor: 'ew-resize',
      userSelect: 'none',
      touchAction: 'none',
    });
    slider.addEventListener('keydown', (event) => {
      const step = { ArrowLeft: -STEP_MS, ArrowDown: -STEP_MS, ArrowRight: STEP_MS, ArrowUp: STEP_MS }[
        event.key
      ];
      const page = { PageDown: -PAGE_MS, PageUp: PAGE_MS }[event.key];
      const delta = step ?? page;
      if (delta === undefined) return;
      event.preventDefault();
      const current = latest.current.cuts;
      const moved = current.map((cut, i) =>
        i === index ? Math.round(clampCut(index, cut + delta, current)) : cut,
      );
      latest.current.onMove(moved);
      if (keySave.current) clearTimeout(keySave.current);
      keySave.current = setTimeout(() => latest.current.onSave(latest.current.cuts), KEY_SAVE_DELAY_MS);
    });
    wrapper.append(slider);
    return slider;
  }

  function segmentLabel(n: number): HTMLElement {
    const label = document.createElement('span');
    label.textContent = String(n);
    label.setAttribute('aria-hidden', 'true');
    Object.assign(label.style, {
      position: 'absolute',
      bottom: '2px',
      left: '4px',
      font: '12px system-ui, sans-serif',
      color: '#1b1f2a',
    });
    return label;
  }

  /** Where a cut may go: inside the recording, at least 50 ms from the cuts beside it. */
  function clampCut(index: number, ms: number, current: number[]): number {
    const low = (index > 0 ? current[index - 1] : 0) + MIN_SEGMENT_MS;
    const high = (index < current.length - 1 ? current[index + 1] : durationMs) - MIN_SEGMENT_MS;
    return Math.min(high, Math.max(low, ms));
  }

  function syncSliders(target: Drawn, current: number[]) {
    current.forEach((cut, i) => {
      const slider = target.sliders[i];
      slider?.setAttribute('aria-valuenow', String(cut));
      slider?.setAttribute('aria-valuetext', seconds(cut));
    });
  }

  // Cuts moved elsewhere (typed, stepped, saved, or by a key here): the regions follow.
  useEffect(() => {
    const target = drawn.current;
    if (!target || target.handles.length !== cuts.length) return;
    const bounds = [0, ...cuts, durationMs];
    target.handles.forEach((handle, i) => {
      if (Math.abs(handle.start * 1000 - cuts[i]) > 0.5) handle.setOptions({ start: cuts[i] / 1000 });
    });
    target.segments.forEach((segment, i) =>
      segment.setOptions({ start: bounds[i] / 1000, end: bounds[i + 1] / 1000 }),
    );
    syncSliders(target, cuts);
  }, [cuts, durationMs, state]);

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
        The recording, cut into {cuts.length + 1} segments. Click a segment to hear it; drag a numbered
        handle, or focus it and use the arrow keys (50 ms) or Page Up and Page Down (1 s), to move where that
        segment starts. Moves are saved at once. The table below gives the same times to type.
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
