import { formatClock, parseClock } from './epub-clock';

describe(parseClock.name, () => {
  it.each([
    ['1:02:03.5', 3_723_500],
    ['0:00:00', 0],
    ['02:03.250', 123_250],
    ['00:07', 7000],
    ['12.5s', 12_500],
    ['500ms', 500],
    ['1.5min', 90_000],
    ['2h', 7_200_000],
    ['12.345', 12_345],
    [' 3s ', 3000],
    ['.5s', 500],
  ])('reads %s as %d ms', (value, ms) => {
    expect(parseClock(value)).toBeCloseTo(ms, 6);
  });

  it.each(['', 'abc', '-1s', '1:60:00', '1:2:3', '61:00', '5 s', '1e3', '3d', '0x10', 'NaN', '1:00:00:00'])(
    'refuses %j',
    (value) => {
      expect(parseClock(value)).toBeNull();
    },
  );
});

describe(formatClock.name, () => {
  it('names a time in minutes and seconds to the millisecond', () => {
    expect(formatClock(0)).toBe('0:00.000');
    expect(formatClock(62_500)).toBe('1:02.500');
    expect(formatClock(7249.6)).toBe('0:07.250');
  });
});
