import { trainingItems } from './fsrs-training';

const at = (iso: string) => new Date(iso);

describe('FSRS training items', () => {
  it('gives one item per review after a card’s first, with its history and the days between in the member’s zone', () => {
    const items = trainingItems(
      [
        { wordId: 1, rating: 3, reviewedAt: at('2026-11-03T09:00:00Z') },
        { wordId: 1, rating: 1, reviewedAt: at('2026-11-01T09:00:00Z') },
        // 23:30 in New York on Nov 3 is Nov 4 in UTC: the member's day counts.
        { wordId: 1, rating: 4, reviewedAt: at('2026-11-04T04:30:00Z') },
        { wordId: 2, rating: 3, reviewedAt: at('2026-11-02T12:00:00Z') },
      ],
      'America/New_York',
    );
    expect(items).toEqual([
      [
        { rating: 1, deltaT: 0 },
        { rating: 3, deltaT: 2 },
      ],
      [
        { rating: 1, deltaT: 0 },
        { rating: 3, deltaT: 2 },
        { rating: 4, deltaT: 0 },
      ],
    ]);
  });

  it('counts UTC days for a member without a zone', () => {
    const items = trainingItems(
      [
        { wordId: 7, rating: 3, reviewedAt: at('2026-11-01T23:59:00Z') },
        { wordId: 7, rating: 3, reviewedAt: at('2026-11-02T00:01:00Z') },
      ],
      null,
    );
    expect(items).toEqual([
      [
        { rating: 3, deltaT: 0 },
        { rating: 3, deltaT: 1 },
      ],
    ]);
  });
});
