import type { ApiClient } from './api-client';
import { bookForm, fixture, form } from './fixtures';

/** A book with three chapters of two phrases each, made through the admin API. */
export async function makeBook(admin: ApiClient) {
  const book = await admin.post<{ data: { id: number; book_code: string } }>('admin/book', bookForm());
  const chapterIds: number[] = [];
  for (const n of [1, 2, 3]) {
    const chapter = await admin.post<{ data: { id: number } }>('admin/chapter', {
      title: `Chapitre ${n}`,
      chapter_no: n,
      book_id: book.body.data.id,
    });
    chapterIds.push(chapter.body.data.id);
    for (const text of ['Bonjour.', 'Au revoir.']) {
      const phrase = await admin.post(
        'admin/phrase',
        form({
          chapter_id: chapter.body.data.id,
          phrase: `${text} (${n})`,
          dictionary: 'bonjour — hello\nau revoir: goodbye',
          line_audio: [fixture('clip.mp3'), 'clip.mp3'],
        }),
      );
      if (phrase.status !== 200) throw new Error(phrase.text);
    }
  }
  return { code: book.body.data.book_code, chapterIds };
}

/** The phrase ids of each chapter, in order: ids[chapter index][position - 1]. */
export async function phraseIdsOf(admin: ApiClient, chapterIds: number[]): Promise<number[][]> {
  const ids: number[][] = [];
  for (const id of chapterIds) {
    const list = await admin.get<{ data: { phrases: Array<{ id: number }> } }>(
      `admin/phrase?chapter_id=${id}`,
    );
    ids.push(list.body.data.phrases.map((p) => p.id));
  }
  return ids;
}
