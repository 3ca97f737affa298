import { DataSource } from 'typeorm';
import { DictationAttempt } from '../learning/practice/dictation-attempt.entity';
import { PhraseMark } from '../learning/practice/phrase-mark.entity';
import { SavedWord } from '../learning/words/saved-word.entity';
import type { ApiClient } from './api-client';
import type { TestServer } from './harness';

/**
 * A row in each of the practice modes' tables (docs/practice.md, "Schema"), for the tests that move or
 * restore a whole installation: translations through the admin form, a member's languages through the
 * profile, and a dictation attempt, a mark and a phrase card written directly (their routes have tests
 * of their own).
 */
export async function addPracticeRows(
  server: TestServer,
  admin: ApiClient,
  member: { client: ApiClient; id: number },
  phraseId: number,
): Promise<void> {
  const { data } = (
    await admin.get<{ data: { phrase: string; dictionary: string } }>(`admin/phrase/${phraseId}`)
  ).body;
  const translated = await admin.put(`admin/phrase/${phraseId}`, {
    phrase: data.phrase,
    dictionary: data.dictionary,
    translations: { en: 'Hello, world.', 'pt-BR': 'Olá, mundo.' },
  });
  if (translated.status !== 200) throw new Error(translated.text);
  const spoken = await member.client.put('user/profile', { speaks: ['pt-BR', 'en'] });
  if (spoken.status !== 200) throw new Error(spoken.text);
  const db = server.app.get(DataSource);
  const at = new Date('2026-03-04T05:06:07.000Z');
  const row = { userId: member.id, phraseId };
  await db
    .getRepository(DictationAttempt)
    .insert({ ...row, typed: 'Bonjur', score: 50, strict: true, createdAt: at });
  await db.getRepository(PhraseMark).insert({ ...row, mark: 'lost', markedAt: at });
  await db
    .getRepository(SavedWord)
    .insert({ ...row, kind: 'phrase', term: '', meaning: '', createdAt: at, due: at });
}

/** What those tables hold, the same on either database, to compare before and after a move. */
export async function practiceRows(db: DataSource) {
  const read = async (query: string) =>
    (await db.query<Array<Record<string, unknown>>>(query)).map((row) =>
      Object.fromEntries(
        Object.entries(row).map(([key, value]) => [
          key,
          typeof value === 'bigint' || /^\d+$/.test(String(value)) ? Number(value) : value,
        ]),
      ),
    );
  return {
    translations: await read(
      'SELECT phrase_id, language, text FROM phrase_translations ORDER BY phrase_id, language',
    ),
    speaks: await read('SELECT id, speaks FROM users WHERE speaks IS NOT NULL ORDER BY id'),
    dictation: await read(
      'SELECT user_id, phrase_id, typed, score, CASE WHEN strict THEN 1 ELSE 0 END AS strict FROM dictation_attempts ORDER BY id',
    ),
    marks: await read('SELECT user_id, phrase_id, mark FROM phrase_marks ORDER BY user_id, phrase_id'),
    cards: await read(
      "SELECT user_id, phrase_id, kind, term FROM saved_words WHERE kind = 'phrase' ORDER BY id",
    ),
  };
}
