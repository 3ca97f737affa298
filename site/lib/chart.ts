/** Words and numbers of the dashboard's progress charts (islands/ProgressStats.tsx, islands/DayChart.tsx). */

/** "1 day", "2 days": the count with its noun, singular for exactly one. */
export const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "1 minute", "0.5 minutes", "12 minutes". */
export const minutes = (n: number) => plural(n, 'minute', 'minutes');

/** The top of the minutes axis: 1, 2 or 5 times a power of ten, at least the highest day (5 for none). */
export function axisTop(max: number): number {
  if (max <= 0) return 5;
  const power = 10 ** Math.floor(Math.log10(max));
  return [1, 2, 5, 10].map((step) => step * power).find((top) => top >= max) ?? 10 * power;
}

/**
 * Where a bar's tooltip goes, as CSS: over the bar's middle, shifted left by as much of its own width as
 * the bar is far along, so that it never leaves the chart at either end.
 */
export function tipPosition(index: number, count: number): { left: string; transform: string } {
  const share = ((index + 0.5) / count) * 100;
  return { left: `${share}%`, transform: `translateX(-${share}%)` };
}

/** A member's day ("2026-03-12", their own date) as the charts name it: "Thu, Mar 12". */
export function dayName(date: string): string {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(year, month - 1, day).toLocaleDateString(undefined, {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
  });
}
