import type { SignedLinks } from '../../platform/common/signed-links';
import type { ChapterImportResponse, ImportAligning, ImportRowResponse } from './imports.dto';
import { STAGE_HOURS } from './import-stage';
import { readChapterManifest } from './manifests';
import { mismatchWarning, UNSURE_BELOW, unsureCount } from './recording-alignment';
import { segments } from './recording-import';
import type { StagedImport } from './staged-import.entity';

/** What a preview link grants: one clip of one staged import (0 is the recording). */
export function previewSubject(id: string, n: number): string {
  return `${id}/${n}`;
}

/** A staged clip for the preview's <audio>, which cannot send a token (ImportPreviewController checks it). */
function previewUrl(links: SignedLinks, id: string, n: number): string {
  return links.sign('import-preview', previewSubject(id, n), `/api/v1/import-preview/${id}/${n}`).url;
}

/** A look at a chapter import: its preview, or how far its alignment is (the controller answers 202). */
export function chapterImportAnswer(
  links: SignedLinks,
  staged: StagedImport,
): ChapterImportResponse | ImportAligning {
  if (staged.status !== 'aligning') return chapterImportPreview(links, staged);
  return {
    import_id: staged.id,
    status: 'aligning',
    progress: { percent: staged.progress ?? 0, eta_s: staged.etaS ?? 0 },
  };
}

/** The answer of the staging call and of a later look at the same import. */
export function chapterImportPreview(links: SignedLinks, staged: StagedImport): ChapterImportResponse {
  const manifest = readChapterManifest(staged.manifest);
  const spans = manifest.recording ? segments(manifest.recording) : [];
  const rows: ImportRowResponse[] = manifest.rows.map((row, i) => ({
    n: row.n,
    phrase: row.phrase,
    dictionary: row.dictionary,
    translations: row.translations ?? {},
    clip: row.clip,
    duration_ms: spans[i] ? spans[i].endMs - spans[i].startMs : row.duration_ms,
    ...(spans[i] && { start_ms: spans[i].startMs, end_ms: spans[i].endMs }),
    ...(manifest.recording?.confidence && { confidence: manifest.recording.confidence[i] }),
    audio: row.file && !row.error ? previewUrl(links, staged.id, row.n) : null,
    error: row.error,
  }));
  const mismatch = manifest.recording ? mismatchWarning(manifest.recording) : null;
  return {
    import_id: staged.id,
    status: 'ready',
    kind: staged.kind,
    mode: staged.mode,
    chapter_id: staged.chapterId,
    format: manifest.format,
    recording: manifest.recording
      ? {
          url: previewUrl(links, staged.id, 0),
          duration_ms: manifest.recording.duration_ms,
          cuts: manifest.recording.cuts,
          start_ms: spans[0]?.startMs ?? 0,
          end_ms: spans.at(-1)?.endMs ?? manifest.recording.duration_ms,
          unsure_below: manifest.recording.confidence ? UNSURE_BELOW : null,
          unsure: unsureCount(manifest.recording),
          mismatch,
        }
      : null,
    notice: manifest.notice ?? null,
    rows,
    errors: [
      ...manifest.rows.filter((row) => row.error).map((row) => `Row ${row.n}: ${row.error}`),
      ...manifest.errors,
      ...(mismatch ? [mismatch] : []),
    ],
    expires_at: new Date(staged.createdAt.getTime() + STAGE_HOURS * 3_600_000).toISOString(),
  };
}
