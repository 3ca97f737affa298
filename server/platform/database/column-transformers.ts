/** bigint columns come back as strings from both drivers: read as numbers (every one kept is < 2^53). */
export const bigintNumber = {
  to: (value: number | null) => value,
  from: (value: unknown) => (value === null || value === undefined ? null : Number(value)),
};
