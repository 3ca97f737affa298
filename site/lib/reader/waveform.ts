/**
 * Draws a decoded clip's waveform on a canvas (voice-recorder.ts): one column of pixels per slice of
 * time, from its lowest to its highest sample. The narrator's and the learner's are drawn on the same
 * time scale (`seconds`, the longer of the two), so their rhythm and pauses line up by eye.
 */
export function drawWaveform(
  canvas: HTMLCanvasElement,
  buffer: AudioBuffer,
  seconds: number,
  colour: string,
): void {
  const ratio = window.devicePixelRatio || 1;
  const width = Math.max(1, Math.round(canvas.clientWidth * ratio));
  const height = Math.max(1, Math.round(canvas.clientHeight * ratio));
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) return;
  context.clearRect(0, 0, width, height);
  const samples = buffer.getChannelData(0);
  // The louder take is not drawn taller: each is scaled to its own peak, so a quiet microphone still shows.
  let peak = 0;
  for (let i = 0; i < samples.length; i += 16) peak = Math.max(peak, Math.abs(samples[i]));
  const scale = peak > 0 ? 1 / peak : 1;
  const columns = Math.min(width, Math.round((buffer.duration / seconds) * width));
  const perColumn = samples.length / Math.max(columns, 1);
  const middle = height / 2;
  context.fillStyle = colour;
  context.fillRect(0, middle - 0.5 * ratio, width, ratio);
  for (let x = 0; x < columns; x++) {
    let low = 0;
    let high = 0;
    const end = Math.min(samples.length, Math.floor((x + 1) * perColumn));
    for (let i = Math.floor(x * perColumn); i < end; i++) {
      const value = samples[i] * scale;
      if (value < low) low = value;
      else if (value > high) high = value;
    }
    const top = middle - high * middle;
    context.fillRect(x, top, 1, Math.max(ratio, (high - low) * middle));
  }
  canvas.dataset.drawn = 'true';
}
