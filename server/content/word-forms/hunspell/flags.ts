/**
 * How a Hunspell dictionary writes its flags (the `FLAG` line of the .aff): one character each (the
 * default, and "UTF-8"), two characters each ("long"), or decimal numbers separated by commas ("num").
 * A flag is kept as its text ("A", "Aa", "123"), whatever the mode.
 */
export type FlagMode = 'char' | 'long' | 'num';

export function flagMode(value: string | undefined): FlagMode | null {
  switch ((value ?? '').toLowerCase()) {
    case 'utf-8':
    case 'char':
      return 'char';
    case 'long':
      return 'long';
    case 'num':
      return 'num';
    default:
      return null;
  }
}

/** The flags of a field, or a reason they cannot be read. */
export function splitFlags(text: string, mode: FlagMode): string[] | string {
  if (mode === 'char') return [...text];
  if (mode === 'long') {
    const chars = [...text];
    if (chars.length % 2) return `"${text}" is not a list of two-character flags`;
    const flags: string[] = [];
    for (let i = 0; i < chars.length; i += 2) flags.push(chars[i] + chars[i + 1]);
    return flags;
  }
  if (text === '') return [];
  const flags = text.split(',');
  return flags.every((flag) => /^\d+$/.test(flag))
    ? flags.map((flag) => String(Number(flag)))
    : `"${text}" is not a list of numeric flags`;
}
