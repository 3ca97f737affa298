export interface GlossaryEntry {
  term: string;
  meaning: string;
}

const SEPARATORS = [' — ', ' – ', ' - ', ':', '\t'];

/**
 * A phrase's dictionary lines as entries: each line splits at the earliest of " — ", " – ", " - ", ":"
 * or a tab; a line with none is a term without a meaning. Blank lines are skipped.
 */
export function splitGlossary(dictionary: string): GlossaryEntry[] {
  return dictionary
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      let at = -1;
      let width = 0;
      for (const separator of SEPARATORS) {
        const index = line.indexOf(separator);
        if (index !== -1 && (at === -1 || index < at)) {
          at = index;
          width = separator.length;
        }
      }
      if (at === -1) return { term: line, meaning: '' };
      return { term: line.slice(0, at).trim(), meaning: line.slice(at + width).trim() };
    });
}
