/** One chapter in a table: number, title, phrase count, audio time and its links; `children` adds actions. */
import type { ReactNode } from 'react';
import { adminRoutes, formatDuration, type ChapterSummary } from '../../lib/admin';

export function ChapterRow({ chapter, children }: { chapter: ChapterSummary; children?: ReactNode }) {
  return (
    <tr>
      <td data-label="No.">{chapter.chapter_no}</td>
      <th scope="row">{chapter.title}</th>
      <td data-label="Phrases">{chapter.phrase_count}</td>
      <td data-label="Audio">{formatDuration(chapter.duration_ms)}</td>
      <td className="actions-cell">
        <ul className="row-actions">
          <li>
            <a href={adminRoutes.editChapter(chapter.id)}>
              Edit<span className="visually-hidden"> chapter {chapter.title}</span>
            </a>
          </li>
          <li>
            <a href={adminRoutes.phrases(chapter.id)}>
              Phrase List<span className="visually-hidden"> of {chapter.title}</span>
            </a>
          </li>
          {children}
        </ul>
      </td>
    </tr>
  );
}

/** The head of every chapter table, matching ChapterRow's cells. */
export function ChapterHead() {
  return (
    <thead>
      <tr>
        <th scope="col">No.</th>
        <th scope="col">Title</th>
        <th scope="col">Phrases</th>
        <th scope="col">Audio</th>
        <th scope="col">Actions</th>
      </tr>
    </thead>
  );
}
