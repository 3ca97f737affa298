import { iso639_2B } from './track-language';

describe('iso639_2B', () => {
  it.each([
    ['de', 'ger'],
    ['de-AT', 'ger'],
    ['fr', 'fre'],
    ['nl', 'dut'],
    ['pt-BR', 'por'],
    ['es', 'spa'],
    ['zh-Hant', 'chi'],
    ['deu', 'ger'],
    ['yue', 'yue'],
  ])('gives %s as %s', (tag, code) => expect(iso639_2B(tag)).toBe(code));

  it('gives und without a language or for one it cannot say', () => {
    for (const tag of [null, '', 'xx', 'x-private']) expect(iso639_2B(tag)).toBe('und');
  });
});
