import { PayloadTooLargeException } from '@nestjs/common';
import { open } from 'node:fs/promises';
import { ValidationFailed } from '../../platform/common/api-error';
import type { UploadedFile } from '../../platform/common/uploaded-file.validator';
import { baseName, type StagedClip } from './clip-matching';
import type { ImportStage } from './import-stage';
import { MAX_CLIPS } from './imports.dto';
import { extractZip, isJunk, ZipRejected } from './zip-entries';

async function looksLikeZip(file: UploadedFile): Promise<boolean> {
  if (file.originalname.toLowerCase().endsWith('.zip')) return true;
  const handle = await open(file.path, 'r');
  try {
    const head = Buffer.alloc(4);
    await handle.read(head, 0, 4, 0);
    return head.toString('latin1', 0, 2) === 'PK';
  } finally {
    await handle.close();
  }
}

/**
 * A chapter import's uploaded clips, moved into the import's folder under numbered names: one zip is
 * extracted there (with every bomb and path check), several files are taken as they are. Junk from macOS
 * is left out.
 */
export async function gatherClips(
  stage: ImportStage,
  id: string,
  files: UploadedFile[],
): Promise<StagedClip[]> {
  const dir = stage.workDir(id);
  let clips: StagedClip[];
  if (files.length === 1 && (await looksLikeZip(files[0]))) {
    try {
      clips = (await extractZip(files[0].path, dir)).map((entry) => ({
        name: baseName(entry.name),
        file: baseName(entry.file),
      }));
    } catch (error) {
      if (!(error instanceof ZipRejected)) throw error;
      if (error.status === 413) throw new PayloadTooLargeException(error.message);
      throw ValidationFailed.field('clips', error.message);
    }
  } else {
    clips = [];
    for (const [i, file] of files.entries()) {
      const name = baseName(file.originalname);
      if (isJunk(name)) continue;
      await stage.adopt(id, file.path, `${i + 1}.clip`);
      clips.push({ name, file: `${i + 1}.clip` });
    }
  }
  if (clips.length > MAX_CLIPS)
    throw ValidationFailed.field(
      'clips',
      `The upload holds ${clips.length} clips; the most is ${MAX_CLIPS}.`,
    );
  const seen = new Set<string>();
  for (const clip of clips) {
    if (seen.has(clip.name.toLowerCase()))
      throw ValidationFailed.field(
        'clips',
        `Two clips are named "${clip.name}": give each clip its own name.`,
      );
    seen.add(clip.name.toLowerCase());
  }
  return clips;
}
