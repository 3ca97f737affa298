import { waitProgress } from './take-away';

describe(waitProgress.name, () => {
  const start = 1_000_000;

  it('counts the seconds since the wait began against the estimate', () => {
    expect(waitProgress(start, 40, start)).toEqual({
      elapsed: 0,
      estimate: 40,
      fraction: 0,
      text: '0 s of about 40 s',
    });
    expect(waitProgress(start, 40, start + 10_900)).toEqual({
      elapsed: 10,
      estimate: 40,
      fraction: 0.25,
      text: '10 s of about 40 s',
    });
  });

  it('never shows a full bar for a file that is not there: past the estimate it has no value', () => {
    expect(waitProgress(start, 40, start + 55_000)).toEqual({
      elapsed: 55,
      estimate: 40,
      fraction: null,
      text: '55 s: longer than the estimate of 40 s, still being made…',
    });
  });
});
