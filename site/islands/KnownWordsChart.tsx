/**
 * Known words per language over the dashboard's days (docs/word-status.md), one bar chart per language
 * from `GET user/stats`' `known_words`: the words known at the end of each day. Nothing until the member
 * has marked a word known.
 */
import type { Stats } from '../../server/learning/listening/listening.dto';
import { languageName } from '../../server/content/catalogue/languages';
import { axisTop, dayName } from '../lib/chart';
import { DayChart } from './DayChart';

export function KnownWordsChart({ stats }: { stats: Stats }) {
  if (!stats.known_words?.length) return null;
  return (
    <>
      {stats.known_words.map((line) => {
        const name = languageName(line.lang);
        const last = line.known.at(-1) ?? 0;
        return (
          <DayChart
            key={line.lang}
            id={`known-${line.lang}`}
            axis="Words"
            top={axisTop(Math.max(0, ...line.known))}
            days={stats.days.map((day, i) => ({
              date: day.date,
              value: line.known[i] ?? 0,
              text: `${dayName(day.date)}: ${line.known[i] ?? 0} ${name} words known`,
            }))}
            caption={`${name} words you know, the last ${stats.days.length} days: ${last} today.`}
          />
        );
      })}
    </>
  );
}
