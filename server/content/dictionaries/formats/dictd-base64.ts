/**
 * dictd's numbers in its `.index` (offset and length of a definition): base 64 in the alphabet
 * `A-Za-z0-9+/`, most significant digit first, no padding. `B` is 1, `BA` is 64.
 */
const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < DIGITS.length; i++) VALUE[DIGITS.charCodeAt(i)] = i;

/** Eight digits are 48 bits: far past any file, and still exact in a double. */
const MAX_DIGITS = 8;

/** The number the digits spell, or null when they are not dictd base 64. */
export function decodeDictdNumber(digits: string): number | null {
  if (digits.length === 0 || digits.length > MAX_DIGITS) return null;
  let value = 0;
  for (let i = 0; i < digits.length; i++) {
    const code = digits.charCodeAt(i);
    const digit = code < 128 ? VALUE[code] : -1;
    if (digit < 0) return null;
    value = value * 64 + digit;
  }
  return value;
}

/** The digits of a number, as dictfmt writes them (tests build indexes with it). */
export function encodeDictdNumber(value: number): string {
  let digits = '';
  do {
    digits = DIGITS[value % 64] + digits;
    value = Math.floor(value / 64);
  } while (value > 0);
  return digits;
}
