import { meaningSource } from './meaning-source';

describe('meaningSource', () => {
  it("names the dictionary a word's meaning came from, and says nothing for the glossary", () => {
    expect(meaningSource({ source: 'dictionary', source_name: 'FreeDict' })).toBe('Meaning from FreeDict');
    expect(meaningSource({ source: 'dictionary', source_name: null })).toBe('Meaning from a dictionary');
    expect(meaningSource({ source: 'glossary', source_name: null })).toBeNull();
    expect(meaningSource({ source: null, source_name: null })).toBeNull();
  });
});
