import { nounCount } from './noun-count';

describe('nounCount', () => {
  it.each([
    [0, 'chapter', undefined, '0 chapters'],
    [1, 'chapter', undefined, '1 chapter'],
    [2, 'chapter', undefined, '2 chapters'],
    [1, 'phrase', undefined, '1 phrase'],
    [12_345, 'phrase', undefined, '12,345 phrases'],
    [1, 'story', 'stories', '1 story'],
    [3, 'story', 'stories', '3 stories'],
  ])('says %d with "%s" as pages do', (n, one, many, said) => {
    expect(nounCount(n, one, many)).toBe(said);
  });
});
