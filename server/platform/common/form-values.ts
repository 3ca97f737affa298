import { Transform } from 'class-transformer';

/**
 * Form posts send numbers as text. Whole numbers become numbers; an empty value becomes "missing", so
 * that "required" is the message; anything else stays as sent and fails the integer rule.
 */
export const ToInteger = () =>
  Transform(({ value }: { value: unknown }) => {
    if (value === '' || value === null || value === undefined) return undefined;
    if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) return Number(value);
    return value;
  });

export const Trim = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));

/**
 * Text in Unicode's composed form (NFC): "é" typed as e + a combining accent meets the "é" dictionaries and
 * word forms store (docs/lookup.md).
 */
export const Composed = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.normalize('NFC') : value));

/** Multi-line text from a textarea: Windows line endings become \n, and outer blank space goes. */
export const TrimLines = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.replace(/\r\n?/g, '\n').trim() : value,
  );
