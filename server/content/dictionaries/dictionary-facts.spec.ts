import { nameFromFile, settleFacts } from './dictionary-facts';

describe(settleFacts.name, () => {
  const opened = (meta = {}) => ({ format: 'dictd' as const, meta });
  const current = {
    name: 'Old name',
    source: 'es',
    target: 'en',
    licence: 'Old licence',
    attribution: 'Old attribution',
  };

  it('takes each field from the form, over the file', () => {
    const facts = settleFacts(
      { name: 'Form', licence: 'CC0', attribution: 'Us', source: 'pt-br', target: 'EN' },
      opened({ name: 'File', licence: 'GPL', attribution: 'FreeDict' }),
      ['x.index'],
      null,
    );
    expect(facts).toEqual({
      name: 'Form',
      source: 'pt-BR',
      target: 'en',
      format: 'dictd',
      licence: 'CC0',
      attribution: 'Us',
    });
  });

  it("falls back to the file's metadata, then to the file name", () => {
    expect(
      settleFacts(
        { source: 'es', target: 'en' },
        opened({ name: ' File ', licence: 'GPL' }),
        ['x.index'],
        null,
      ),
    ).toEqual(expect.objectContaining({ name: 'File', licence: 'GPL', attribution: null }));
    expect(
      settleFacts({ source: 'es', target: 'en' }, opened(), ['freedict-spa-eng.dict.dz'], null).name,
    ).toBe('freedict-spa-eng');
  });

  it("keeps a replaced dictionary's own values where neither the form nor the file has one", () => {
    expect(settleFacts({}, opened({ attribution: 'New' }), ['v2.tsv'], current)).toEqual({
      ...current,
      attribution: 'New',
      format: 'dictd',
    });
  });

  it("cuts a file's long text to the column, with an ellipsis", () => {
    const facts = settleFacts({}, opened({ attribution: 'a'.repeat(5000) }), ['x.tsv'], current);
    expect(facts.attribution).toHaveLength(1000);
    expect(facts.attribution?.endsWith('…')).toBe(true);
  });
});

describe(nameFromFile.name, () => {
  it('drops the suffixes that name a part of a dictionary', () => {
    expect(nameFromFile('freedict-deu-eng.index')).toBe('freedict-deu-eng');
    expect(nameFromFile('stardict-es.IDX')).toBe('stardict-es');
    expect(nameFromFile('my.words.csv')).toBe('my.words');
    expect(nameFromFile('.tsv')).toBe('.tsv');
  });
});
