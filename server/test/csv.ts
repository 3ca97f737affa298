/**
 * RFC 4180 records, enough to read back what the exports write (CRLF line ends, quoted cells). The tests'
 * own reader, apart from the server's import parser, so an export is checked by something it did not share.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = '';
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted && ch === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (ch === '"') {
      quoted = !quoted;
    } else if (!quoted && ch === ',') {
      endCell();
    } else if (!quoted && ch === '\r' && text[i + 1] === '\n') {
      endCell();
      rows.push(row);
      row = [];
      i++;
    } else {
      cell += ch;
    }
  }
  return rows;
}
