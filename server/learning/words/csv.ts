/** RFC 4180 fields, guarded against formula injection (OWASP's "CSV Injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  // A spreadsheet would run a cell that starts like a formula: a leading apostrophe keeps it text.
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows as CSV text: CRLF line ends, and a BOM so that spreadsheets read it as UTF-8. */
export function toCsv(rows: Array<Array<string | number | null>>): string {
  return '\uFEFF' + rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
