/**
 * The "Readers" panel of the admin book detail page: what authors learn from members' listening (issue 11),
 * from GET admin/book/{book_code}/insights. Aggregates only: the answer names no member.
 */
import type { CSSProperties, ReactNode } from 'react';
import type {
  BookInsights,
  ChapterInsight,
  LostPhrase,
  ReplayedPhrase,
} from '../../../server/learning/insights/insights.service';
import { TableScroll } from './ui/Table';
import { useLoad } from './ui/hooks';

const members = (n: number) => `${n} ${n === 1 ? 'member' : 'members'}`;

/** A share of those who started, as a whole percent; chapter 1 can be below 100 % when readers skip ahead. */
const share = (reached: number, started: number) =>
  started > 0 ? Math.min(100, Math.round((reached / started) * 100)) : 0;

// No chart library and no stylesheet of its own: two boxes, the inner one as wide as the share.
const track: CSSProperties = {
  display: 'inline-block',
  width: '10rem',
  maxWidth: '100%',
  height: '0.75rem',
  marginRight: '0.5rem',
  verticalAlign: 'middle',
  background: 'var(--line)',
  borderRadius: '999px',
  overflow: 'hidden',
};
const fill: CSSProperties = { display: 'block', height: '100%', background: 'var(--brand)' };

export default function ReadersPanel({ bookCode }: { bookCode: string }) {
  const [loaded] = useLoad<BookInsights>(`admin/book/${encodeURIComponent(bookCode)}/insights`);
  return (
    <section aria-labelledby="readers-heading">
      <h2 id="readers-heading">Readers</h2>
      {loaded.status === 'loading' && <p role="status">Loading the readers' figures…</p>}
      {loaded.status === 'failed' && <p>{loaded.message}</p>}
      {loaded.status === 'ready' && <Insights insights={loaded.data} />}
    </section>
  );
}

function Insights({ insights }: { insights: BookInsights }) {
  if (insights.started === 0) return <p>No one has listened to this book yet.</p>;
  return (
    <>
      <p>
        <strong>{members(insights.started)}</strong> started this book. Figures are totals only; no member is
        named.
      </p>
      <Funnel chapters={insights.chapters} started={insights.started} />
      <StopPoints chapters={insights.chapters} />
      <MostReplayed phrases={insights.most_replayed} />
      <MostLost phrases={insights.most_lost} />
    </>
  );
}

function Funnel({ chapters, started }: { chapters: ChapterInsight[]; started: number }) {
  return (
    <>
      <h3 id="funnel-heading">Chapters reached</h3>
      <TableScroll label="Chapters reached">
        <table className="admin-table" aria-labelledby="funnel-heading">
          <thead>
            <tr>
              <th scope="col">Chapter</th>
              <th scope="col">Members who reached it</th>
              <th scope="col">Share of those who started</th>
            </tr>
          </thead>
          <tbody>
            {chapters.map((chapter) => {
              const percent = share(chapter.reached, started);
              return (
                <tr key={chapter.chapter_no}>
                  <th scope="row">
                    {chapter.chapter_no}. {chapter.title}
                  </th>
                  <td data-label="Members who reached it">{chapter.reached}</td>
                  <td data-label="Share of those who started">
                    <span style={track} aria-hidden="true">
                      <span style={{ ...fill, width: `${percent}%` }} />
                    </span>
                    {percent}%
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableScroll>
    </>
  );
}

function StopPoints({ chapters }: { chapters: ChapterInsight[] }) {
  return (
    <>
      <h3 id="stops-heading">Where listeners stopped</h3>
      <p>
        For each chapter, the phrase where most of the listeners who did not hear its last phrase got no
        further.
      </p>
      <TableScroll label="Where listeners stopped">
        <table className="admin-table" aria-labelledby="stops-heading">
          <thead>
            <tr>
              <th scope="col">Chapter</th>
              <th scope="col">Position</th>
              <th scope="col">Phrase</th>
              <th scope="col">Listeners who stopped there</th>
            </tr>
          </thead>
          <tbody>
            {chapters.map(({ chapter_no, title, stopped_at: stop }) => (
              <tr key={chapter_no}>
                <th scope="row">
                  {chapter_no}. {title}
                </th>
                {stop ? (
                  <>
                    <td data-label="Position">{stop.position}</td>
                    <td data-label="Phrase">{stop.text}</td>
                    <td data-label="Listeners who stopped there">
                      {stop.listeners_stopped} of {stop.listeners}
                    </td>
                  </>
                ) : (
                  <td colSpan={3}>No listener stopped before the end.</td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </>
  );
}

/** A phrase, where it sits, and the counts a ranking shows for it. */
interface RankedPhrase {
  phrase_id: number;
  text: string;
  chapter_no: number;
  position: number;
}

/**
 * A ranking of phrases (most replayed, most often lost): one table whose count columns differ. Each
 * column is a heading and how to read it from a row.
 */
function PhraseRanking<T extends RankedPhrase>(props: {
  id: string;
  title: string;
  about: ReactNode;
  empty: string;
  phrases: T[];
  counts: Array<[heading: string, value: (phrase: T) => number]>;
}) {
  const { id, title, about, empty, phrases, counts } = props;
  return (
    <>
      <h3 id={id}>{title}</h3>
      <p>{about}</p>
      {phrases.length === 0 ? (
        <p>{empty}</p>
      ) : (
        <TableScroll label={title}>
          <table className="admin-table" aria-labelledby={id}>
            <thead>
              <tr>
                <th scope="col">Phrase</th>
                <th scope="col">Chapter</th>
                <th scope="col">Position</th>
                {counts.map(([heading]) => (
                  <th key={heading} scope="col">
                    {heading}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {phrases.map((phrase) => (
                <tr key={phrase.phrase_id}>
                  <th scope="row">{phrase.text}</th>
                  <td data-label="Chapter">{phrase.chapter_no}</td>
                  <td data-label="Position">{phrase.position}</td>
                  {counts.map(([heading, value]) => (
                    <td key={heading} data-label={heading}>
                      {value(phrase)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </>
  );
}

function MostReplayed({ phrases }: { phrases: ReplayedPhrase[] }) {
  return (
    <PhraseRanking
      id="replayed-heading"
      title="Most replayed phrases"
      about="A replay is any play of a phrase after a listener's first; the ten phrases replayed most."
      empty="No phrase has been replayed yet."
      phrases={phrases}
      counts={[
        ['Replays', (phrase) => phrase.replays],
        ['Listeners', (phrase) => phrase.listeners],
      ]}
    />
  );
}

/** docs/practice.md: the phrases members most often marked Lost ("did you understand?" in the reader). */
function MostLost({ phrases }: { phrases: LostPhrase[] }) {
  return (
    <PhraseRanking
      id="lost-heading"
      title="Most often lost"
      about="The phrases members most often marked Lost after hearing them: candidates for a glossary entry, a translation or a slower clip. Each member counts once per phrase, with their latest mark."
      empty="No phrase has been marked Lost yet."
      phrases={phrases}
      counts={[['Members who were lost', (phrase) => phrase.lost]]}
    />
  );
}
