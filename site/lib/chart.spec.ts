import { axisTop, minutes, plural, tipPosition } from './chart';

describe('the progress chart', () => {
  it('says "1 minute", never "1 minutes"', () => {
    expect(minutes(1)).toBe('1 minute');
    expect(minutes(0)).toBe('0 minutes');
    expect(minutes(0.5)).toBe('0.5 minutes');
    expect(minutes(12)).toBe('12 minutes');
    expect(plural(1, 'review', 'reviews')).toBe('1 review');
  });

  it('rounds the minutes axis up to 1, 2 or 5 times a power of ten', () => {
    expect(axisTop(0)).toBe(5);
    expect(axisTop(0.3)).toBe(0.5);
    expect(axisTop(1)).toBe(1);
    expect(axisTop(1.2)).toBe(2);
    expect(axisTop(7.3)).toBe(10);
    expect(axisTop(42)).toBe(50);
    expect(axisTop(100)).toBe(100);
  });

  it('keeps the tooltip inside the chart at both ends', () => {
    expect(tipPosition(0, 10)).toEqual({ left: '5%', transform: 'translateX(-5%)' });
    expect(tipPosition(9, 10)).toEqual({ left: '95%', transform: 'translateX(-95%)' });
  });
});
