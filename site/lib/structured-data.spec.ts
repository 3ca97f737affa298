import type { PublicBook } from '../../server/content/catalogue/catalogue.service';
import { audiobookJsonLd, isoDuration } from './structured-data';

describe('isoDuration', () => {
  it('writes seconds, minutes and hours exactly, leaving out the parts that are zero', () => {
    expect(isoDuration(35_000)).toBe('PT35S');
    expect(isoDuration(3_865_000)).toBe('PT1H4M25S');
    expect(isoDuration(60_000)).toBe('PT1M');
    expect(isoDuration(7_200_000)).toBe('PT2H');
    expect(isoDuration(3_605_000)).toBe('PT1H5S');
    expect(isoDuration(36_000_000 * 10)).toBe('PT100H');
  });

  it('rounds to the nearest second, and a length under half a second to one second', () => {
    expect(isoDuration(35_499)).toBe('PT35S');
    expect(isoDuration(35_500)).toBe('PT36S');
    expect(isoDuration(59_600)).toBe('PT1M');
    expect(isoDuration(3_599_500)).toBe('PT1H');
    expect(isoDuration(1)).toBe('PT1S');
  });
});

describe('audiobookJsonLd', () => {
  const book = {
    book_code: 'der-zug',
    title: 'Der Zug',
    author: 'A. Autor',
    narrated_by: 'N. Sprecher',
    description: 'Eine Reise.',
    difficulty: 'Hard',
    hours: 0,
    minutes: 1,
    length_source: 'clips',
    duration_ms: 35_012,
    typed_hours: 2,
    typed_minutes: 30,
    language: 'de',
    cefr: 'B1',
    updated_at: '2025-01-02T03:04:05.000Z',
  } as PublicBook;
  const ld = (overrides: Partial<PublicBook>) =>
    JSON.parse(
      audiobookJsonLd({ ...book, ...overrides }, 'https://x.test/b', 'https://x.test/c.webp'),
    ) as Record<string, unknown>;

  it("gives the clips' exact length and the CEFR level, not the difficulty", () => {
    const data = ld({});
    expect(data.duration).toBe('PT35S');
    expect(data.educationalLevel).toBe('B1');
    expect(JSON.stringify(data)).not.toContain('Hard');
  });

  it('gives the typed length while the book has no clips, and no level when it has none', () => {
    const data = ld({ duration_ms: null, length_source: 'typed', hours: 2, minutes: 30, cefr: null });
    expect(data.duration).toBe('PT2H30M');
    expect(data).not.toHaveProperty('educationalLevel');
    expect(ld({ duration_ms: null, length_source: 'typed', hours: 0, minutes: 0 })).not.toHaveProperty(
      'duration',
    );
  });
});
