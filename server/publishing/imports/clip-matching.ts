import { naturalOrder, rowTextProblem, type ParsedText } from './text-formats';

export interface StagedClip {
  /** The clip's file name as uploaded (folders left out). */
  name: string;
  /** Its file in the import's folder. */
  file: string;
}

export interface MatchedRow {
  n: number;
  phrase: string;
  dictionary: string;
  /** By canonical tag (text-formats.ts); absent from an import staged before translations. */
  translations?: Record<string, string>;
  clip: string | null;
  file: string | null;
  error: string | null;
}

/** "1 clip", "2 clips". */
const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** The last part of a path from a zip or a folder upload: clips are named by their file name alone. */
export const baseName = (name: string) => name.split(/[\\/]/).pop() ?? name;

/**
 * Pairs the text's rows with the clips: by name when the text names them (TSV, CSV), by order otherwise
 * (plain blocks, clips sorted naturally). Every problem is said on its row, or in `errors` when it
 * belongs to no row (a clip nothing names).
 */
export function matchClips(
  text: Pick<ParsedText, 'format' | 'rows'> & { problems?: string[] },
  clips: StagedClip[],
): { rows: MatchedRow[]; errors: string[] } {
  // The header's problems (a malformed translation column) belong to no row.
  const errors: string[] = [...(text.problems ?? [])];
  const rows: MatchedRow[] = text.rows.map(({ n, phrase, dictionary, audio, translations }) => ({
    n,
    phrase,
    dictionary,
    translations,
    clip: audio,
    file: null,
    error: null,
  }));
  if (text.format === 'blocks') {
    const ordered = [...clips].sort((a, b) => naturalOrder(a.name, b.name));
    const mismatch =
      ordered.length === rows.length
        ? null
        : `The text has ${count(rows.length, 'phrase')} and the upload ${count(ordered.length, 'clip')}.`;
    if (mismatch) errors.push(mismatch);
    rows.forEach((row, i) => {
      row.clip = ordered[i]?.name ?? null;
      row.file = ordered[i]?.file ?? null;
      if (!ordered[i]) row.error = `No clip for this phrase: ${mismatch}`;
    });
    for (const extra of ordered.slice(rows.length))
      errors.push(`The clip "${extra.name}" matches no phrase.`);
  } else {
    const byName = new Map(clips.map((clip) => [clip.name, clip]));
    const byLowerName = new Map(clips.map((clip) => [clip.name.toLowerCase(), clip]));
    const used = new Set<string>();
    for (const row of rows) {
      if (!row.clip) {
        row.error = 'This row names no clip in its audio column.';
        continue;
      }
      const clip = byName.get(baseName(row.clip)) ?? byLowerName.get(baseName(row.clip).toLowerCase());
      if (!clip) {
        row.error = `No clip named "${row.clip}" was uploaded.`;
        continue;
      }
      row.file = clip.file;
      used.add(clip.name);
    }
    for (const clip of clips)
      if (!used.has(clip.name)) errors.push(`The clip "${clip.name}" matches no row of the text.`);
  }
  // A problem with the row's own text comes before one with its clip.
  for (const row of rows) row.error = rowTextProblem(row) ?? row.error;
  return { rows, errors };
}
