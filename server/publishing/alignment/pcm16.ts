/**
 * 16-bit little-endian mono PCM, as ffmpeg and eSpeak NG write it: read as it streams, and written as a
 * WAV file (the test recordings, the test fixtures).
 */

/**
 * Hands on each sample of a stream of chunks. A pipe may split a sample between two chunks: its first
 * byte waits for the next chunk.
 */
export class Pcm16Reader {
  private odd: number | null = null;

  constructor(private readonly onSample: (value: number) => void) {}

  write(chunk: Buffer): void {
    let at = 0;
    if (this.odd !== null && chunk.length) {
      this.onSample((((chunk[0] << 8) | this.odd) << 16) >> 16);
      this.odd = null;
      at = 1;
    }
    for (; at + 1 < chunk.length; at += 2) this.onSample(chunk.readInt16LE(at));
    if (at < chunk.length) this.odd = chunk[at];
  }
}

/** The 44-byte header of a mono 16-bit WAV file of `samples` samples at `rate`. */
export function wavHeader(samples: number, rate: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + samples * 2, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(samples * 2, 40);
  return header;
}
