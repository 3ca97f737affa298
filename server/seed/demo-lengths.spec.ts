import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { decodedLengthUs, eachLimited } from '../publishing/formats/audio-measures';
import { demoAudioFiles, readDemoCatalogue, readDemoLengths } from './demo-catalogue';

/**
 * The demo seed keeps the lengths of demo/lengths.json as if it had decoded the files (demo-seed.service.ts):
 * they must be what real ffmpeg decodes today, for every file the catalogue names, or the demo's exports
 * would place its cues off the clips. A file added or replaced without `node scripts/demo-lengths.mjs`
 * fails here.
 */
describe('The demo catalogue’s shipped clip lengths', () => {
  const { dir, books } = readDemoCatalogue();
  const lengths = readDemoLengths();
  const files = demoAudioFiles(books);

  it('name exactly the audio files the catalogue names, each of them on disk', () => {
    expect([...lengths.keys()].sort()).toEqual([...files].sort());
    expect(files.filter((file) => !existsSync(join(dir, file)))).toEqual([]);
    // A sanity check of the listing itself: the demo's folders hold these files and a few unused ones.
    const onDisk = readdirSync(join(dir, 'audio'), { recursive: true, withFileTypes: true }).filter((entry) =>
      entry.isFile(),
    ).length;
    expect(files.length).toBeGreaterThan(100);
    expect(onDisk).toBeGreaterThanOrEqual(files.length);
  });

  it('are the lengths ffmpeg decodes from the files, to the microsecond', async () => {
    const measured = new Map<string, number>();
    await eachLimited(files, 2, async (file) => {
      measured.set(file, await decodedLengthUs(join(dir, file)));
    });
    const off = files
      .filter((file) => measured.get(file) !== lengths.get(file))
      .map((file) => `${file}: ${lengths.get(file)} µs kept, ${measured.get(file)} µs decoded`);
    expect(off).toEqual([]);
  }, 300_000);
});
