// Writes server/seed/demo/lengths.json: the decoded length of every audio file the demo catalogue names,
// measured by the server's own ffmpeg decode (server/publishing/formats/audio-measures.ts), so that the
// demo seed stores the clips with their exact lengths instead of decoding them at every first start.
// Run it after adding or replacing a demo clip; server/seed/demo-lengths.spec.ts fails until then.
//   node scripts/ensure-build.mjs && node scripts/demo-lengths.mjs
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const dist = join(import.meta.dirname, '../dist/app/server');
const { decodedLengthUs } = require(join(dist, 'publishing/formats/audio-measures.js'));
const { readDemoCatalogue, demoAudioFiles, DEMO_LENGTHS_FILE } = require(
  join(dist, 'seed/demo-catalogue.js'),
);

const { dir, books } = readDemoCatalogue(join(import.meta.dirname, '../server/seed/demo'));
const lengths = {};
for (const file of demoAudioFiles(books).sort()) lengths[file] = await decodedLengthUs(join(dir, file));
writeFileSync(
  join(dir, DEMO_LENGTHS_FILE),
  JSON.stringify(
    {
      about:
        'Decoded length of each demo audio file, in microseconds: written by scripts/demo-lengths.mjs, checked by server/seed/demo-lengths.spec.ts.',
      lengths_us: lengths,
    },
    null,
    2,
  ) + '\n',
);
console.log(`${Object.keys(lengths).length} demo audio files measured into ${join(dir, DEMO_LENGTHS_FILE)}`);
