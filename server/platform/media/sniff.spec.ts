import { sniffBytes } from './sniff';

const bytes = (...values: Array<number | string>) =>
  Buffer.concat(values.map((v) => (typeof v === 'string' ? Buffer.from(v, 'latin1') : Buffer.from([v]))));

describe('sniffBytes', () => {
  it('recognises the image formats a cover may have', () => {
    expect(sniffBytes(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('jpeg');
    expect(sniffBytes(bytes(0x89, 'PNG\r\n', 0x1a, '\n', 0, 0))).toBe('png');
    expect(sniffBytes(bytes('RIFF', 0, 0, 0, 0, 'WEBPVP8 '))).toBe('webp');
  });

  it('recognises the audio formats a clip may have', () => {
    expect(sniffBytes(bytes(0xff, 0xfb, 0x90, 0x64))).toBe('mp3');
    expect(sniffBytes(bytes('ID3', 4, 0, 0, 0, 0, 0, 0, 0xff, 0xfb, 0x90))).toBe('mp3');
    expect(sniffBytes(bytes(0xff, 0xf1, 0x50, 0x80))).toBe('aac');
    expect(sniffBytes(bytes(0, 0, 0, 0x20, 'ftypM4A ', 0))).toBe('m4a');
    expect(sniffBytes(bytes('OggS', 0, 2))).toBe('ogg');
    expect(sniffBytes(bytes('RIFF', 0, 0, 0, 0, 'WAVEfmt '))).toBe('wav');
  });

  it('rejects impostors whatever their name would say', () => {
    expect(sniffBytes(Buffer.from('<!doctype html><html><body>png?</body></html>'))).toBeNull();
    expect(sniffBytes(Buffer.from('just some text, named song.mp3'))).toBeNull();
    expect(sniffBytes(bytes('ID3', 4, 0, 0, 0, 0, 0, 0, 'not audio after the tag'))).toBeNull();
    expect(sniffBytes(bytes('RIFF', 0, 0, 0, 0, 'AVI LIST'))).toBeNull();
    expect(sniffBytes(Buffer.alloc(0))).toBeNull();
  });
});
