import { parseForm } from './body.interceptor';

describe(parseForm.name, () => {
  it('reads a repeated field as a list, however long (a reorder of 150 phrases)', () => {
    const ids = Array.from({ length: 150 }, (_, i) => i + 1);
    const text = ids.map((id) => `ids[]=${id}`).join('&');
    expect(parseForm(text)).toEqual({ ids: ids.map(String) });
    expect(parseForm(ids.map((id) => `ids=${id}`).join('&'))).toEqual({ ids: ids.map(String) });
  });

  it('refuses more than 1,000 fields with a 413', () => {
    expect(() => parseForm(Array.from({ length: 1001 }, (_, i) => `f${i}=1`).join('&'))).toThrow(
      'The form has too many fields (at most 1000).',
    );
  });

  it('refuses nesting past 32 levels', () => {
    expect(() => parseForm('a' + '[b]'.repeat(40) + '=1')).toThrow('The form is nested too deeply.');
  });
});
