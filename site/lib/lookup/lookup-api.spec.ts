import { api } from '../api';
import { groupEntries, lookUp, MAX_MEANING, meaningOf } from './lookup-api';

jest.mock('../api', () => ({ api: jest.fn() }));
const asked = api as jest.MockedFunction<typeof api>;

describe('a lookup request', () => {
  beforeEach(() => {
    asked.mockReset();
    asked.mockResolvedValue({ data: { word: 'x' } });
  });

  it('sends the book’s language, the word and the phrase', async () => {
    await lookUp('de', 'Insel', 7);
    expect(asked).toHaveBeenCalledWith('lookup?lang=de&word=Insel&phrase_id=7');
  });

  it('leaves lang out for a book without a language (the server takes the phrase’s), never lang=', async () => {
    await lookUp('', 'Insel', 8);
    expect(asked).toHaveBeenCalledWith('lookup?word=Insel&phrase_id=8');
  });
});

describe('a dictionary definition as a card’s meaning', () => {
  it('is the whole definition when it fits, line by line, blank lines left out', () => {
    const definition = '  island  \n\n(geography) land surrounded by water\nisle\nÄhnlich: Eiland';
    expect(meaningOf(definition)).toBe('island\n(geography) land surrounded by water\nisle\nÄhnlich: Eiland');
  });

  it('is its first whole lines, never a cut line, when the whole is longer than a card keeps', () => {
    const line = (n: number) => `${n}: ${'x'.repeat(297)}`;
    const definition = [1, 2, 3, 4, 5].map(line).join('\n');
    const meaning = meaningOf(definition);
    expect(meaning).toBe([1, 2, 3].map(line).join('\n'));
    expect(meaning.length).toBeLessThanOrEqual(MAX_MEANING);
    expect(definition.startsWith(`${meaning}\n`)).toBe(true);
  });

  it('is the first line cut at the limit, with no ellipsis, when that line alone is longer', () => {
    const definition = `${'long '.repeat(300)}\nsecond`;
    const meaning = meaningOf(definition);
    expect(meaning).toHaveLength(MAX_MEANING);
    expect(definition.startsWith(meaning)).toBe(true);
    expect(meaning.endsWith('…')).toBe(false);
  });
});

describe('entries grouped for the sheet', () => {
  it('keeps two dictionaries of the same name apart, each with its own attribution', () => {
    const entry = (id: number, attribution: string, definition: string) => ({
      headword: 'casa',
      definition,
      lemma: null,
      dictionary: { id, name: 'FreeDict', attribution },
    });
    const groups = groupEntries([
      entry(1, 'GPL, by A', 'house'),
      entry(2, 'GPL, by B', 'home'),
      entry(1, 'GPL, by A', 'firm'),
    ]);
    expect(groups).toHaveLength(1);
    expect(
      groups[0].dictionaries.map((d) => [d.dictionary.attribution, d.entries.map((e) => e.definition)]),
    ).toEqual([
      ['GPL, by A', ['house', 'firm']],
      ['GPL, by B', ['home']],
    ]);
  });
});
