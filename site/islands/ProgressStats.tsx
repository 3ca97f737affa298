/**
 * The member's progress on the dashboard: the last 30 days as a bar chart of minutes listened, the
 * streak and the counts, and, once the member has done a dictation in those days, their dictation
 * accuracy day by day (DictationChart). Everything comes from `GET user/stats`, in the member's days.
 * The charts are plain HTML (islands/DayChart.tsx).
 */
import type { Stats } from '../../server/learning/listening/listening.dto';
import { axisTop, dayName, minutes, plural } from '../lib/chart';
import { DayChart } from './DayChart';
import { DictationChart } from './DictationChart';
import { KnownWordsChart } from './KnownWordsChart';

export type { Stats };

export default function ProgressStats({ stats }: { stats: Stats | undefined }) {
  if (!stats || stats.days.length === 0) return null;

  const days = stats.days;
  const top = axisTop(Math.max(0, ...days.map((d) => d.minutes)));
  const total = Math.round(days.reduce((sum, d) => sum + d.minutes, 0) * 10) / 10;
  const reviews = days.reduce((sum, d) => sum + d.reviews, 0);
  const chartDays = days.map((day) => ({
    date: day.date,
    // A day without listening draws no bar (DayChart draws a thin mark for any number, 0 included).
    value: day.minutes > 0 ? day.minutes : null,
    text: `${dayName(day.date)}: ${minutes(day.minutes)}, ${plural(day.reviews, 'review', 'reviews')}`,
  }));

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
      <DayChart
        id="minutes"
        axis="Minutes"
        top={top}
        days={chartDays}
        caption={`Minutes listened each day, the last ${days.length} days: ${minutes(total)} in all, ${plural(reviews, 'review', 'reviews')}.`}
      />
      <DictationChart stats={stats.dictation} />
      <KnownWordsChart stats={stats} />
      <p>
        <a href="/review">Review your words</a> · <a href="/words">Your words</a>
      </p>
    </section>
  );
}
