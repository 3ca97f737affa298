/**
 * The dashboard's dictation accuracy (docs/practice.md, Pages): the mean score of each of the last 30
 * days with a dictation, as bars on a 0–100 % axis (DayChart), the overall figure over the period (the
 * server's, `GET user/stats` `dictation`), and the same figures as a table for those who prefer one.
 * Days without a dictation draw no bar and say so; a day at 0 % draws a thin mark and says 0%.
 */
import type { DictationStats } from '../../server/learning/listening/listening.dto';
import { dayName, plural } from '../lib/chart';
import { DayChart } from './DayChart';

const dictations = (n: number) => plural(n, 'dictation', 'dictations');

export function DictationChart({ stats }: { stats: DictationStats | undefined }) {
  if (!stats || stats.days.length === 0) return null;
  const { days, attempts, accuracy: overall } = stats;
  if (overall === null || attempts === 0)
    return (
      <p className="dictation-none">
        No dictation in the last {days.length} days. In the reader, Dictation plays each phrase for you to
        type what you hear.
      </p>
    );
  const chartDays = days.map((day) => ({
    date: day.date,
    value: day.attempts > 0 ? day.accuracy : null,
    text:
      day.attempts > 0 && day.accuracy !== null
        ? `${dayName(day.date)}: ${day.accuracy}% over ${dictations(day.attempts)}`
        : `${dayName(day.date)}: no dictation`,
  }));
  const practised = days.filter((day) => day.attempts > 0 && day.accuracy !== null);
  return (
    <div className="dictation-stats">
      <h3>Dictation</h3>
      <dl className="stat-counts">
        <div>
          <dt>Accuracy, last {days.length} days</dt>
          <dd data-stat="dictation">{overall}%</dd>
        </div>
        <div>
          <dt>Dictations</dt>
          <dd data-stat="dictations">{attempts}</dd>
        </div>
      </dl>
      <DayChart
        id="dictation"
        axis="Score"
        top={100}
        tick={(value) => `${value}%`}
        days={chartDays}
        caption={`Dictation accuracy each day, the last ${days.length} days: ${overall}% over ${dictations(attempts)}.`}
      >
        <details className="chart-table">
          <summary>Dictation accuracy as a table</summary>
          <table>
            <caption className="visually-hidden">Dictation accuracy by day</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Dictations</th>
                <th scope="col">Mean score</th>
              </tr>
            </thead>
            <tbody>
              {practised.map((day) => (
                <tr key={day.date}>
                  <th scope="row">{dayName(day.date)}</th>
                  <td>{day.attempts}</td>
                  <td>{day.accuracy}%</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </DayChart>
    </div>
  );
}
