import { isDefinition } from './dictionary-meanings';

describe('isDefinition: a saved meaning is a dictionary definition', () => {
  const tener = 'to have\nto hold\nto own\nto keep';

  it('takes the whole definition, however its blank space is laid out', () => {
    expect(isDefinition(tener, tener, 1000)).toBe(true);
    expect(isDefinition('to have to hold  to own to keep', tener, 1000)).toBe(true);
    expect(isDefinition('  to have\r\n\nto hold\nto own\nto keep \n', tener, 1000)).toBe(true);
  });

  it('takes its first lines, as the reader saves a long entry', () => {
    expect(isDefinition('to have', tener, 1000)).toBe(true);
    expect(isDefinition('to have\nto hold', tener, 1000)).toBe(true);
  });

  it('refuses a part of a line, lines out of order, and a meaning the dictionary does not have', () => {
    expect(isDefinition('to ha', tener, 1000)).toBe(false);
    expect(isDefinition('to hold', tener, 1000)).toBe(false);
    expect(isDefinition('to have\nto own', tener, 1000)).toBe(false);
    expect(isDefinition('to eat', tener, 1000)).toBe(false);
    expect(isDefinition('  ', tener, 1000)).toBe(false);
  });

  it('takes the beginning of a definition longer than a card keeps, cut anywhere, with or without an ellipsis', () => {
    const long = `${'a very long sense '.repeat(80)}end`;
    expect(isDefinition(`${long.slice(0, 999)}…`, long, 1000)).toBe(true);
    expect(isDefinition(long.slice(0, 500), long, 1000)).toBe(true);
    expect(isDefinition('not its beginning', long, 1000)).toBe(false);
  });
});
