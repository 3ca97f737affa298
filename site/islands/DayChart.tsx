/**
 * A bar chart of the member's last days, as the dashboard draws them (ProgressStats): plain HTML, no
 * charting library. A list of days whose bars grow from the bottom, a labelled value axis on the left and
 * a days axis below. Each day's value shows on hover and on focus; the days are one tab stop, and ← →
 * Home End move between them (a roving tabindex), each day read out from its own text. The list is named
 * by the figure's caption, which sums the whole period up.
 */
import { useState, type KeyboardEvent, type ReactNode } from 'react';
import { dayName, tipPosition } from '../lib/chart';

export interface ChartDay {
  /** The member's day, "2026-03-12". */
  date: string;
  /**
   * The bar's height in the axis's unit. Null draws none (nothing that day); any number, 0 included,
   * draws a bar at least a thin mark high, so a day at 0 (a 0 % dictation) is told from a day without one.
   */
  value: number | null;
  /** What the day says to a screen reader and in the tooltip ("Thu, Mar 12: 2 minutes, 1 review"). */
  text: string;
}

interface Props {
  /** Prefix of the ids inside, one per chart on the page. */
  id: string;
  caption: ReactNode;
  /** The value axis's title ("Minutes", "Score"). */
  axis: string;
  /** The top of the value axis. */
  top: number;
  /** How a tick reads ("50", "50%"). */
  tick?: (value: number) => string;
  days: readonly ChartDay[];
  /** Anything shown under the chart (a table of the same figures). */
  children?: ReactNode;
}

export function DayChart({ id, caption, axis, top, tick = String, days, children }: Props) {
  // The day whose value shows: the one with the focus, else the one under the pointer.
  const [focused, setFocused] = useState<number | null>(null);
  const [hovered, setHovered] = useState<number | null>(null);
  // The one day in the tab order; today until the member moves.
  const [current, setCurrent] = useState<number | null>(null);
  const last = days.length - 1;
  const tabStop = current ?? last;
  const shown = focused ?? hovered;
  const captionId = `${id}-caption`;

  const move = (event: KeyboardEvent<HTMLOListElement>) => {
    const to = { ArrowLeft: tabStop - 1, ArrowRight: tabStop + 1, Home: 0, End: last }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    const next = Math.min(last, Math.max(0, to));
    setCurrent(next);
    event.currentTarget.querySelectorAll<HTMLLIElement>('li')[next]?.focus();
  };

  return (
    <figure className="stat-chart" data-chart={id}>
      <figcaption id={captionId}>{caption}</figcaption>
      <div className="chart-frame">
        <div className="chart-y" aria-hidden="true">
          <span className="chart-axis-title">{axis}</span>
          <span className="chart-tick" style={{ bottom: '100%' }}>
            {tick(top)}
          </span>
          <span className="chart-tick" style={{ bottom: '50%' }}>
            {tick(top / 2)}
          </span>
          <span className="chart-tick" style={{ bottom: '0%' }}>
            {tick(0)}
          </span>
        </div>
        <div className="chart-plot">
          <ol
            className="chart-bars"
            aria-labelledby={captionId}
            onKeyDown={move}
            onMouseLeave={() => setHovered(null)}
          >
            {days.map((day, i) => (
              <li
                key={day.date}
                tabIndex={i === tabStop ? 0 : -1}
                data-day={day.date}
                onFocus={() => {
                  setFocused(i);
                  setCurrent(i);
                }}
                onBlur={() => setFocused(null)}
                onMouseEnter={() => setHovered(i)}
              >
                {day.value !== null && (
                  <span
                    className="chart-bar"
                    style={{ height: `${Math.max(2, (day.value / top) * 100)}%`, minHeight: '3px' }}
                  />
                )}
                <span className="visually-hidden">{day.text}</span>
              </li>
            ))}
          </ol>
          {shown !== null && (
            <p className="chart-tip" aria-hidden="true" style={tipPosition(shown, days.length)}>
              {days[shown].text}
            </p>
          )}
        </div>
        <div className="chart-x" aria-hidden="true">
          <span>{dayName(days[0].date)}</span>
          <span className="chart-axis-title">Days</span>
          <span>Today</span>
        </div>
      </div>
      {children}
    </figure>
  );
}
