import { listQueryString, readListQuery } from './list-query';

describe(listQueryString.name, () => {
  it('writes the parameters in the API order, without empty values and defaults', () => {
    const query = readListQuery('?page=3&q=gato&lang=es&utm_source=mail&sort=title&cefr=A2');
    expect(listQueryString(query)).toBe('lang=es&cefr=A2&q=gato&sort=title&page=3');
    expect(listQueryString(readListQuery('?sort=newest&page=1&q=%20%20'))).toBe('');
    expect(listQueryString(readListQuery(''))).toBe('');
  });

  it('sends the search as one line without outer spaces, and keeps other values as given', () => {
    expect(listQueryString(readListQuery('?q=%20el%20%20%20gato%20'))).toBe('q=el+gato');
    // A bad value is the server's to refuse (a 422 naming it), not the page's to hide.
    expect(listQueryString(readListQuery('?page=0&per_page=500'))).toBe('page=0&per_page=500');
  });
});
