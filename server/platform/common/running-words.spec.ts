import { countForms, formOf, runningWords } from './running-words';

describe('running words', () => {
  it('takes the language’s word boundaries, letters only, in lower case and composed', () => {
    expect(runningWords('Los perros ven 2 casas, ¿no?', 'es')).toEqual([
      'Los',
      'perros',
      'ven',
      'casas',
      'no',
    ]);
    expect(runningWords("L'homme m’appelle.", 'fr')).toEqual(["L'homme", 'm’appelle']);
    expect(formOf('HÄUSER', 'de')).toBe('häuser');
    // I with a dot above is Turkish: its lower case is i.
    expect(formOf('İstanbul', 'tr')).toBe('istanbul');
    expect(formOf('A\u0301rbol', 'es')).toBe('árbol');
  });

  it('splits a language written without spaces into words', () => {
    expect(runningWords('我喜欢读书', 'zh').length).toBeGreaterThan(1);
  });

  it('counts each form with the spellings it was met in', () => {
    const forms = countForms(['Las casas, las CASAS.', 'Una casa.'], 'es');
    expect(
      Object.fromEntries(
        [...forms].map(([form, { count, spellings }]) => [form, [count, [...spellings].sort()]]),
      ),
    ).toEqual({
      las: [2, ['Las', 'las']],
      casas: [2, ['CASAS', 'casas']],
      una: [1, ['Una', 'una']],
      casa: [1, ['casa']],
    });
  });
});
