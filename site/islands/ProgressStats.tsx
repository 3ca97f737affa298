/**
 * The member's progress on the dashboard: the last 30 days as a small bar chart (a plain SVG, no charting
 * library), the streak and the counts. Everything comes from `GET user/stats`, in the member's days.
 */
import type { Stats } from '../../server/listening/listening.dto';

export type { Stats };

const WIDTH = 300;
const HEIGHT = 80;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export default function ProgressStats({ stats }: { stats: Stats | undefined }) {
  if (!stats) return null;
  const max = Math.max(1, ...stats.days.map((d) => d.minutes));
  const bar = WIDTH / stats.days.length;
  const total = Math.round(stats.days.reduce((sum, d) => sum + d.minutes, 0));
  const reviews = stats.days.reduce((sum, d) => sum + d.reviews, 0);
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
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT + 2}`}
          role="img"
          aria-label={`Listening over the last 30 days: ${total} minutes in all, ${plural(reviews, 'review', 'reviews')}.`}
        >
          {stats.days.map((day, i) => {
            const height = day.minutes > 0 ? Math.max(2, (day.minutes / max) * HEIGHT) : 0;
            return (
              <rect
                key={day.date}
                x={i * bar + 1}
                y={HEIGHT - height}
                width={bar - 2}
                height={height}
                className={day.reviews > 0 ? 'with-reviews' : undefined}
              >
                <title>{`${day.date}: ${day.minutes} min, ${plural(day.reviews, 'review', 'reviews')}`}</title>
              </rect>
            );
          })}
          <line x1="0" y1={HEIGHT + 1} x2={WIDTH} y2={HEIGHT + 1} />
        </svg>
        <figcaption>Minutes listened each day, the last 30 days.</figcaption>
      </figure>
      <p>
        <a href="/review">Review your words</a> · <a href="/words">Your words</a>
      </p>
    </section>
  );
}
