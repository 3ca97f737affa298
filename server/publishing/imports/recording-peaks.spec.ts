import { MAX_PEAK_PAIRS, pairCount, PeakReducer, readPeaks } from './recording-peaks';

/** Signed 16-bit little-endian samples, as ffmpeg pipes them. */
const pcm = (samples: number[]) => {
  const bytes = Buffer.alloc(samples.length * 2);
  samples.forEach((sample, i) => bytes.writeInt16LE(sample, i * 2));
  return bytes;
};

describe(PeakReducer.name, () => {
  it('keeps the lowest and highest sample of each stretch, scaled to ±127', () => {
    // 10 ms at 8 kHz is 80 samples a pair; 20 ms of audio is two pairs.
    const reducer = new PeakReducer(20);
    const first = Array.from({ length: 80 }, (_, i) => (i === 5 ? 32767 : i === 9 ? -16384 : 0));
    const second = Array.from({ length: 80 }, () => 256);
    reducer.push(pcm([...first, ...second]));
    expect(reducer.result()).toEqual({ duration_ms: 20, ms_per_pair: 10, bits: 8, data: [-63, 127, 1, 1] });
  });

  it('reads a sample split between two chunks', () => {
    const reducer = new PeakReducer(10);
    const bytes = pcm(Array.from({ length: 80 }, (_, i) => (i === 40 ? -32768 : 0)));
    reducer.push(bytes.subarray(0, 81));
    reducer.push(bytes.subarray(81));
    expect(reducer.result().data).toEqual([-127, 0]);
  });

  it('never grows past its bound when the audio runs longer than expected', () => {
    const reducer = new PeakReducer(10);
    reducer.push(pcm(Array.from({ length: 800 }, (_, i) => (i === 700 ? 32767 : 0))));
    expect(reducer.result().data).toEqual([0, 127]);
  });

  it('bounds the pairs of a long recording', () => {
    expect(pairCount(1000)).toBe(100);
    expect(pairCount(3 * 3_600_000)).toBe(MAX_PEAK_PAIRS);
    expect(pairCount(0)).toBe(1);
  });
});

describe(readPeaks.name, () => {
  it('takes stored peaks of the same recording, and nothing else', () => {
    const peaks = { duration_ms: 20, ms_per_pair: 10, bits: 8, data: [-1, 1, 0, 0] };
    expect(readPeaks(peaks, 20)).toEqual(peaks);
    expect(readPeaks(peaks, 21)).toBeNull();
    expect(readPeaks({ ...peaks, data: [0, 1, 2] }, 20)).toBeNull();
    expect(readPeaks({ ...peaks, data: [0, 300] }, 20)).toBeNull();
    expect(readPeaks('[]', 20)).toBeNull();
  });
});
