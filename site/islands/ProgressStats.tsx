/**
 * The member's progress on the dashboard: the last 30 days as a bar chart of minutes listened, the
 * streak and the counts. Everything comes from `GET user/stats`, in the member's days.
 *
 * The chart is plain HTML (no charting library): a list of days whose bars grow from the bottom, with a
 * labelled minutes axis on the left and a days axis below. Each day's value shows on hover and on focus;
 * the days are one tab stop, and ← → Home End move between them (a roving tabindex), each day's value
 * read out from its own text.
 */
import { useState, type KeyboardEvent } from 'react';
import type { Stats } from '../../server/listening/listening.dto';
import { axisTop, minutes, plural, tipPosition } from '../lib/chart';

export type { Stats };

/** A member's day ("2026-03-12", their own date) as the chart names it: "Thu, Mar 12". */
const dayName = (date: string) => {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(year, month - 1, day).toLocaleDateString(undefined, {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
  });
};

export default function ProgressStats({ stats }: { stats: Stats | undefined }) {
  // The day whose value shows: the one with the focus, else the one under the pointer.
  const [focused, setFocused] = useState<number | null>(null);
  const [hovered, setHovered] = useState<number | null>(null);
  // The one day in the tab order; today until the member moves.
  const [current, setCurrent] = useState<number | null>(null);
  if (!stats || stats.days.length === 0) return null;

  const days = stats.days;
  const last = days.length - 1;
  const tabStop = current ?? last;
  const top = axisTop(Math.max(0, ...days.map((d) => d.minutes)));
  const total = Math.round(days.reduce((sum, d) => sum + d.minutes, 0) * 10) / 10;
  const reviews = days.reduce((sum, d) => sum + d.reviews, 0);
  const shown = focused ?? hovered;
  const describe = (i: number) =>
    `${dayName(days[i].date)}: ${minutes(days[i].minutes)}, ${plural(days[i].reviews, 'review', 'reviews')}`;

  const move = (event: KeyboardEvent<HTMLOListElement>) => {
    const to = { ArrowLeft: tabStop - 1, ArrowRight: tabStop + 1, Home: 0, End: last }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    const next = Math.min(last, Math.max(0, to));
    setCurrent(next);
    event.currentTarget.querySelectorAll<HTMLLIElement>('li')[next]?.focus();
  };

  return (
    <section className="progress-stats" aria-labelledby="progress-heading">
      <h2 id="progress-heading">Your progress</h2>
      <dl className="stat-counts">
        <div>
          <dt>Streak</dt>
          <dd data-stat="streak">{plural(stats.streak_days, 'day', 'days')}</dd>
        </div>
        <div>
          <dt>Phrases heard</dt>
          <dd data-stat="phrases">{stats.phrases_heard}</dd>
        </div>
        <div>
          <dt>Words saved</dt>
          <dd data-stat="words">{stats.words_saved}</dd>
        </div>
        <div>
          <dt>Reviews</dt>
          <dd data-stat="reviews">{stats.reviews_done}</dd>
        </div>
        <div>
          <dt>Books finished</dt>
          <dd data-stat="books">{stats.books_finished}</dd>
        </div>
      </dl>
      <figure className="stat-chart">
        <figcaption id="chart-caption">
          Minutes listened each day, the last {days.length} days: {minutes(total)} in all,{' '}
          {plural(reviews, 'review', 'reviews')}.
        </figcaption>
        <div className="chart-frame">
          <div className="chart-y" aria-hidden="true">
            <span className="chart-axis-title">Minutes</span>
            <span className="chart-tick" style={{ bottom: '100%' }}>
              {top}
            </span>
            <span className="chart-tick" style={{ bottom: '50%' }}>
              {top / 2}
            </span>
            <span className="chart-tick" style={{ bottom: '0%' }}>
              0
            </span>
          </div>
          <div className="chart-plot">
            <ol
              className="chart-bars"
              aria-labelledby="chart-caption"
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
                  <span
                    className="chart-bar"
                    style={{ height: `${day.minutes > 0 ? Math.max(2, (day.minutes / top) * 100) : 0}%` }}
                  />
                  <span className="visually-hidden">{describe(i)}</span>
                </li>
              ))}
            </ol>
            {shown !== null && (
              <p className="chart-tip" aria-hidden="true" style={tipPosition(shown, days.length)}>
                {describe(shown)}
              </p>
            )}
          </div>
          <div className="chart-x" aria-hidden="true">
            <span>{dayName(days[0].date)}</span>
            <span className="chart-axis-title">Days</span>
            <span>Today</span>
          </div>
        </div>
      </figure>
      <p>
        <a href="/review">Review your words</a> · <a href="/words">Your words</a>
      </p>
    </section>
  );
}
