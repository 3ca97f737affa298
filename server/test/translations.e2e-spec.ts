import { readFileSync } from 'node:fs';
import { Logger } from '@nestjs/common';
import http from 'node:http';
import { join } from 'node:path';
import { DataSource, EntityManager } from 'typeorm';
import { PhraseTranslationsRepository } from '../content/catalogue/repository/phrase-translations.repository';
import { PageCache } from '../http/page-cache';
import { parseImportText } from '../publishing/imports/text-formats';
import { Phrase } from '../content/catalogue/entities/phrase.entity';
import { TranslationIndex } from '../content/catalogue/translation-index';
import { ReadingService } from '../learning/reading/reading.service';
import { readDemoCatalogue } from '../seed/demo-catalogue';
import { DemoSeedService } from '../seed/demo-seed.service';
import { ApiClient, newAdmin, newMember } from './api-client';
import { makeBook, phraseIdsOf } from './books';
import { fixture } from './fixtures';
import { startServer, type TestServer } from './harness';
import { makeZip, unzip } from './zips';

/** Translations (docs/practice.md, "Translations"): the form, the imports, the chapter API and its cache. */

const CLIP = readFileSync(join(__dirname, 'fixtures', 'clip.mp3'));

type Translated = { translations: Record<string, string> };
type AdminPhrase = { data: Translated & { id: number; phrase: string } };
type ReaderAnswer = {
  data: { translation_languages: string[]; phrases: Array<Translated & { id: number }> };
};

/** A multipart phrase form, as the admin screens send it: translations as `translations[<tag>]` fields. */
function phraseForm(fields: Record<string, string>, translations: Record<string, string> = {}): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  for (const [tag, text] of Object.entries(translations)) data.set(`translations[${tag}]`, text);
  return data;
}

describe('Translations', () => {
  let server: TestServer;
  let admin: ApiClient;
  let code: string;
  let chapterIds: number[];
  let ids: number[][];

  beforeAll(async () => {
    server = await startServer();
    admin = (await newAdmin(server)).client;
    ({ code, chapterIds } = await makeBook(admin));
    ids = await phraseIdsOf(admin, chapterIds);
  });
  afterAll(() => server.close());

  const edit = (id: number, translations?: Record<string, string>, phrase = 'Bonjour. (1)') =>
    admin.put<AdminPhrase & { errors: Record<string, string[]> }>(
      `admin/phrase/${id}`,
      phraseForm({ phrase, dictionary: 'bonjour — hello' }, translations),
    );

  it('takes translations through the admin phrase form, each sent set replacing the last', async () => {
    const id = ids[2][0];
    const saved = await edit(id, { en: ' Hello. ', 'pt-br': 'Olá.' });
    expect(saved.status).toBe(200);
    expect(saved.body.data.translations).toEqual({ en: 'Hello.', 'pt-BR': 'Olá.' });
    expect((await admin.get<AdminPhrase>(`admin/phrase/${id}`)).body.data.translations).toEqual({
      en: 'Hello.',
      'pt-BR': 'Olá.',
    });
    // Left out: kept. Sent: the whole set, an empty text removing its language.
    expect((await edit(id)).body.data.translations).toEqual({ en: 'Hello.', 'pt-BR': 'Olá.' });
    expect((await edit(id, { en: '', de: 'Hallo.' })).body.data.translations).toEqual({ de: 'Hallo.' });
    const list = await admin.get<{ data: { phrases: Array<Translated & { id: number }> } }>(
      `admin/phrase?chapter_id=${chapterIds[2]}`,
    );
    expect(list.body.data.phrases.map((p) => p.translations)).toEqual([{ de: 'Hallo.' }, {}]);
    // A JSON body takes them as an object.
    const json = await admin.put<AdminPhrase>(`admin/phrase/${id}`, {
      phrase: 'Bonjour. (3)',
      dictionary: 'bonjour — hello',
      translations: { 'zh-hant': '你好。' },
    });
    expect(json.body.data.translations).toEqual({ 'zh-Hant': '你好。' });

    const created = await admin.post<AdminPhrase>(
      'admin/phrase',
      (() => {
        const form = phraseForm(
          { chapter_id: String(chapterIds[2]), phrase: 'Salut.', dictionary: 'salut — hi' },
          { en: 'Hi.', de: 'Hallo.' },
        );
        form.set('line_audio', fixture('clip.mp3'), 'clip.mp3');
        return form;
      })(),
    );
    expect(created.status).toBe(200);
    // Sorted by tag, as every other answer shows a set, whatever order the form sent.
    expect(Object.entries(created.body.data.translations)).toEqual([
      ['de', 'Hallo.'],
      ['en', 'Hi.'],
    ]);
    // Deleting the phrase deletes its translations (the foreign key cascades).
    const count = async () =>
      Number(
        (
          await server.app
            .get(DataSource)
            .query<Array<{ n: number | string }>>(
              `SELECT COUNT(*) AS n FROM phrase_translations WHERE phrase_id = ${created.body.data.id}`,
            )
        )[0].n,
      );
    expect(await count()).toBe(2);
    expect((await admin.delete(`admin/phrase/${created.body.data.id}`)).status).toBe(200);
    expect(await count()).toBe(0);
  });

  it('refuses malformed tags, long texts and too many languages with a 422 naming translations', async () => {
    const id = ids[2][1];
    const refused = async (translations: Record<string, string>) => {
      const res = await edit(id, translations, 'Au revoir. (3)');
      expect(res.status).toBe(422);
      return res.body.errors.translations;
    };
    expect(await refused({ en_US: 'Hi.' })).toEqual([
      '"en_US" is not a language tag (BCP 47, such as en or pt-BR).',
    ]);
    expect(await refused({ 'pt-br': 'a', 'pt-BR': 'b' })).toEqual([
      '"pt-BR" and "pt-br" are the same language.',
    ]);
    expect(await refused({ en: 'x'.repeat(2001) })).toEqual([
      'The "en" translation must not be longer than 2000 characters.',
    ]);
    const many = Object.fromEntries(
      ['en', 'de', 'es', 'it', 'nl', 'pt', 'sv', 'da', 'fi', 'pl', 'cs', 'sk', 'hu', 'ro', 'bg', 'el', 'tr']
        .concat(['ja', 'ko', 'zh', 'ru'])
        .map((tag) => [tag, 'x']),
    );
    expect(await refused(many)).toEqual(['A phrase may have at most 20 translations.']);
    // However many problems (a JSON body may hold thousands), the message names five and counts the rest.
    const hostile = await admin.put<{ errors: Record<string, string[]> }>(`admin/phrase/${id}`, {
      phrase: 'Au revoir. (3)',
      dictionary: 'x — y',
      translations: Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`bad_${i}`, 'x'])),
    });
    const notATag = (i: number) => `"bad_${i}" is not a language tag (BCP 47, such as en or pt-BR).`;
    expect([hostile.status, hostile.body.errors.translations]).toEqual([
      422,
      [[0, 1, 2, 3, 4].map(notATag).join(' ') + ' … and 2996 more.'],
    ]);
    const list = await admin.put<{ errors: Record<string, string[]> }>(`admin/phrase/${id}`, {
      phrase: 'Au revoir. (3)',
      dictionary: 'x — y',
      translations: ['Hello.'],
    });
    expect(list.body.errors.translations).toEqual([
      'The translations must be a text per language tag, such as translations[en].',
    ]);
    expect((await admin.get<AdminPhrase>(`admin/phrase/${id}`)).body.data.translations).toEqual({});
  });

  it('answers 404, writing nothing, to an edit whose phrase is deleted while it is written', async () => {
    const db = server.app.get(DataSource);
    const form = phraseForm({
      chapter_id: String(chapterIds[2]),
      phrase: 'Bientôt.',
      dictionary: 'bientôt — soon',
    });
    form.set('line_audio', fixture('clip.mp3'), 'clip.mp3');
    const doomed = (await admin.post<AdminPhrase>('admin/phrase', form)).body.data.id;
    // The delete commits between the edit's read of the phrase and its update (on PostgreSQL through
    // another connection; SQLite's one connection can only run it inside the edit's transaction).
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called with its `this` below
    const findOneBy = EntityManager.prototype.findOneBy;
    const spy = jest.spyOn(EntityManager.prototype, 'findOneBy').mockImplementation(async function (
      this: EntityManager,
      ...args: Parameters<EntityManager['findOneBy']>
    ) {
      const found: unknown = await findOneBy.apply(this, args);
      if (args[0] === Phrase && this.queryRunner?.isTransactionActive) {
        spy.mockRestore();
        const deleter = db.options.type === 'postgres' ? db.manager : this;
        await deleter.delete(Phrase, { id: doomed });
      }
      return found as never;
    });
    try {
      const res = await edit(doomed, { en: 'Soon.' }, 'Bientôt.');
      expect([res.status, res.body]).toEqual([404, { message: 'Phrase not found.' }]);
    } finally {
      spy.mockRestore();
    }
    const left = await db.query<Array<{ n: number | string }>>(
      `SELECT COUNT(*) AS n FROM phrase_translations WHERE phrase_id = ${doomed}`,
    );
    expect(Number(left[0].n)).toBe(0);
    expect((await admin.get(`admin/phrase/${doomed}`)).status).toBe(404);
  });

  describe('in the chapter API and its cache', () => {
    /** Counts the requests that reach Express: a hit of the fast path (cached-hits.ts) does not. */
    const watch = () => {
      const express = server.app.getHttpAdapter().getInstance() as unknown as {
        handle: (...args: unknown[]) => unknown;
      };
      const handle = jest.spyOn(express, 'handle');
      return (path: string) =>
        new Promise<{ status: number; body: string; express: boolean }>((resolve, reject) => {
          const before = handle.mock.calls.length;
          http
            .get(`${server.baseUrl}/api/v1/${path}`, (res) => {
              let body = '';
              res.on('data', (chunk: Buffer) => (body += chunk.toString()));
              res.on('end', () =>
                resolve({ status: res.statusCode ?? 0, body, express: handle.mock.calls.length > before }),
              );
            })
            .on('error', reject);
        });
    };

    beforeAll(async () => {
      await edit(ids[0][0], { en: 'Hello. (1)', de: 'Hallo. (1)' });
      await edit(ids[0][1], { en: 'Goodbye. (1)' }, 'Au revoir. (1)');
      await edit(ids[1][0], { en: 'Hello. (2)' });
    });

    it('carries only the asked languages that exist, and the chapter its languages', async () => {
      const visitor = new ApiClient(server);
      const chapter = async (query: string) => {
        const res = await visitor.get<ReaderAnswer>(`guest/book/${code}/chapter/1${query}`);
        expect(res.status).toBe(200);
        expect(res.body.data.translation_languages).toEqual(['de', 'en']);
        return res.body.data.phrases.map((p) => p.translations);
      };
      expect(await chapter('')).toEqual([{}, {}]);
      expect(await chapter('?translations=en')).toEqual([{ en: 'Hello. (1)' }, { en: 'Goodbye. (1)' }]);
      expect(await chapter('?translations=de')).toEqual([{ de: 'Hallo. (1)' }, {}]);
      const both = [{ de: 'Hallo. (1)', en: 'Hello. (1)' }, { en: 'Goodbye. (1)' }];
      expect(await chapter('?translations=en,de')).toEqual(both);
      expect(await chapter('?translations=DE,,en,xx,fr-CA')).toEqual(both);
      expect(await chapter('?translations=fr,ja')).toEqual([{}, {}]);
      expect(await chapter('?other=1')).toEqual([{}, {}]);

      // The shared reader page (publicView) has no translations, only the chapter's languages.
      const view = await server.app.get(ReadingService).publicView(code, '1');
      expect(view!.translation_languages).toEqual(['de', 'en']);
      expect(view!.phrases.every((phrase) => !('translations' in phrase))).toBe(true);
    });

    it('keeps one entry per canonical set, never mixing languages, and serves repeats from the fast path', async () => {
      const cache = server.app.get(PageCache);
      cache.clear();
      const get = watch();
      const asked = ['en', 'de', 'en,de', 'de,en', 'en,de,xx,ja,en', 'xx', 'ja,ko', ''];
      const first = new Map<string, string>();
      for (const query of asked) {
        const res = await get(`guest/book/${code}/chapter/1${query ? `?translations=${query}` : ''}`);
        expect(res.status).toBe(200);
        const { data } = JSON.parse(res.body) as ReaderAnswer;
        const wanted = query.split(',').filter((tag) => ['en', 'de'].includes(tag));
        for (const phrase of data.phrases)
          expect(Object.keys(phrase.translations).every((tag) => wanted.includes(tag))).toBe(true);
        expect(Object.keys(data.phrases[0].translations).sort()).toEqual([...new Set(wanted)].sort());
        first.set(query, res.body);
      }
      // Four sets: none, en, de, and de+en, whatever the order, repeats and unknown tags.
      expect(cache.size).toBe(4);
      for (const query of asked) {
        const again = await get(`guest/book/${code}/chapter/1${query ? `?translations=${query}` : ''}`);
        expect(again.body).toBe(first.get(query));
        // Written as the cache keys it (sorted, only the chapter's languages): answered before Express.
        expect([query, again.express]).toEqual([query, !['', 'en', 'de', 'de,en'].includes(query)]);
      }
      const canonical = await get(`guest/book/${code}/chapter/1?translations=de,en`);
      expect(canonical).toEqual({ status: 200, body: first.get('en,de'), express: false });
      expect(cache.size).toBe(4);
    });

    it('follows an edit at once: a new language is asked for and kept apart', async () => {
      await edit(ids[0][1], { en: 'Goodbye. (1)', fr: 'Au revoir !' }, 'Au revoir. (1)');
      const res = await new ApiClient(server).get<ReaderAnswer>(
        `guest/book/${code}/chapter/1?translations=fr,en`,
      );
      expect(res.body.data.translation_languages).toEqual(['de', 'en', 'fr']);
      expect(res.body.data.phrases.map((p) => p.translations)).toEqual([
        { en: 'Hello. (1)' },
        { en: 'Goodbye. (1)', fr: 'Au revoir !' },
      ]);
    });

    it('keeps no answer with translations while the index cannot tell, still answering right', async () => {
      const cache = server.app.get(PageCache);
      const index = server.app.get(TranslationIndex);
      const path = `guest/book/${code}/chapter/1?translations=de,en`;
      const wanted = [{ de: 'Hallo. (1)', en: 'Hello. (1)' }, { en: 'Goodbye. (1)' }];
      const translationsOf = (body: string) =>
        (JSON.parse(body) as ReaderAnswer).data.phrases.map((p) => p.translations);
      cache.clear();
      const get = watch();
      // Its reads fail (and so do its retries) until the database is back.
      const failing = jest
        .spyOn(server.app.get(PhraseTranslationsRepository), 'languagesByBook')
        .mockRejectedValue(new Error('connection refused'));
      const quiet = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
      try {
        await expect(index.refresh()).rejects.toThrow('connection refused');
        for (let i = 0; i < 3; i++) {
          const res = await get(path);
          expect([res.status, res.express]).toEqual([200, true]);
          expect(translationsOf(res.body)).toEqual(wanted);
          expect(cache.size).toBe(0);
        }
      } finally {
        failing.mockRestore();
        quiet.mockRestore();
      }
      await index.refresh();
      expect(translationsOf((await get(path)).body)).toEqual(wanted);
      expect(cache.size).toBe(1);
      expect((await get(path)).express).toBe(false);
    });

    it('refuses a malformed tag or more than 10 with a 422 naming translations', async () => {
      const visitor = new ApiClient(server);
      const errors = async (query: string) => {
        const res = await visitor.get<{ errors: Record<string, string[]> }>(
          `guest/book/${code}/chapter/1?${query}`,
        );
        expect([query, res.status]).toEqual([query, 422]);
        return res.body.errors;
      };
      expect(await errors('translations=en_US')).toEqual({
        translations: ['"en_US" is not a language tag (BCP 47, such as en or pt-BR).'],
      });
      expect(await errors('translations=en,%3Cscript%3E,x-private')).toEqual({
        translations: ['"<script>", "x-private" are not language tags (BCP 47, such as en or pt-BR).'],
      });
      expect(await errors('translations=a1,b2')).toEqual({
        translations: ['"a1", "b2" are not language tags (BCP 47, such as en or pt-BR).'],
      });
      expect(await errors(`translations=${'en,'.repeat(11)}`)).toEqual({
        translations: ['Ask for at most 10 translation languages.'],
      });
      expect(await errors('translations=en&translations=de')).toEqual({
        translations: [
          'The translations must be one comma-separated list of language tags, such as en,pt-BR.',
        ],
      });
    });

    it('applies the access rule to a locked chapter, translations or not', async () => {
      const path = `guest/book/${code}/chapter/2?translations=en`;
      expect((await new ApiClient(server).get(path)).status).toBe(401);
      expect((await (await newMember(server)).client.get(path)).status).toBe(403);
      const res = await admin.get<ReaderAnswer>(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      expect(res.body.data.phrases.map((p) => p.translations)).toEqual([{ en: 'Hello. (2)' }, {}]);
    });
  });

  it('imports translation:<tag> columns, and lists a malformed one as a problem', async () => {
    const chapter = await admin.post<{ data: { id: number } }>('admin/chapter', {
      title: 'Importé',
      chapter_no: 7,
      book_id: (await admin.get<{ data: { id: number } }>(`admin/book/${code}`)).body.data.id,
    });
    const stage = (text: string) => {
      const data = new FormData();
      data.set('text', new Blob([text]), 'chapter.tsv');
      data.append('clips', new Blob([CLIP]), '1.mp3');
      data.append('clips', new Blob([CLIP]), '2.mp3');
      return admin.post<{
        data: { import_id: string; errors: string[]; rows: Array<Translated & { phrase: string }> };
      }>(`admin/chapter/${chapter.body.data.id}/import`, data);
    };
    const good = await stage(
      'phrase\tdictionary\taudio\ttranslation:en\tTranslation:PT-br\n' +
        'Le train part.\ttrain — train\t1.mp3\tThe train leaves.\tO trem parte.\n' +
        'On arrive.\t\t2.mp3\t\tChegamos.\n',
    );
    expect(good.status).toBe(200);
    expect(good.body.data.errors).toEqual([]);
    expect(good.body.data.rows.map((row) => row.translations)).toEqual([
      { en: 'The train leaves.', 'pt-BR': 'O trem parte.' },
      { 'pt-BR': 'Chegamos.' },
    ]);
    expect((await admin.post(`admin/import/${good.body.data.import_id}/commit`)).status).toBe(200);
    const list = await admin.get<{ data: { phrases: Array<Translated & { phrase: string }> } }>(
      `admin/phrase?chapter_id=${chapter.body.data.id}`,
    );
    expect(list.body.data.phrases.map(({ phrase, translations }) => ({ phrase, translations }))).toEqual([
      { phrase: 'Le train part.', translations: { en: 'The train leaves.', 'pt-BR': 'O trem parte.' } },
      { phrase: 'On arrive.', translations: { 'pt-BR': 'Chegamos.' } },
    ]);

    const bad = await stage('phrase\taudio\ttranslation:english\nUn.\t1.mp3\tOne.\nDeux.\t2.mp3\tTwo.\n');
    expect(bad.status).toBe(200);
    expect(bad.body.data.errors).toEqual([
      'The column "translation:english" does not name a language: write translation: and a language tag (BCP 47), such as translation:en or translation:pt-BR.',
    ]);
    const refused = await admin.post<{ message: string }>(`admin/import/${bad.body.data.import_id}/commit`);
    expect(refused.status).toBe(422);
    expect(refused.body.message).toContain('translation:english');

    // A header of thousands of languages is refused at once, before any row is read.
    const columns = Array.from({ length: 5000 }, (_, i) => `translation:x${i}`);
    const wide = await stage(`phrase\taudio\t${columns.join('\t')}\n${'Un.\t1.mp3\n'.repeat(2000)}`);
    expect([wide.status, wide.body]).toEqual([
      422,
      {
        message: 'The header has 5000 translation columns; a phrase may have at most 20 languages.',
        errors: {
          text: ['The header has 5000 translation columns; a phrase may have at most 20 languages.'],
        },
      },
    ]);
  });

  it('carries translations through a book export and import, and still reads a version 1 archive', async () => {
    const res = await admin.raw(`admin/book/${code}/export`);
    expect(res.status).toBe(200);
    const items = await unzip(Buffer.from(await res.arrayBuffer()));
    const text = (name: string) => items.find((item) => item.name === name)!.data.toString();
    expect(JSON.parse(text('book.json'))).toMatchObject({ format: 'lingonovel-book', version: 2 });
    expect(text('chapters/001/phrases.tsv').split('\n', 1)[0]).toBe(
      'phrase\tdictionary\taudio\ttranslation:de\ttranslation:en\ttranslation:fr',
    );
    const translationsOf = async (bookCode: string) => {
      const chapters = await admin.get<{ data: { chapters: Array<{ id: number }> } }>(
        `admin/chapter?book_id=${(await admin.get<{ data: { id: number } }>(`admin/book/${bookCode}`)).body.data.id}`,
      );
      const all = [];
      for (const { id } of chapters.body.data.chapters) {
        const list = await admin.get<{ data: { phrases: Translated[] } }>(`admin/phrase?chapter_id=${id}`);
        all.push(list.body.data.phrases.map((p) => p.translations));
      }
      return all;
    };
    const importZip = async (zip: Buffer) => {
      const data = new FormData();
      data.set('zip', new Blob([zip]), 'book.zip');
      const staged = await admin.post<{ data: { import_id: string; errors: string[] } }>(
        'admin/book/import',
        data,
      );
      expect(staged.status).toBe(200);
      expect(staged.body.data.errors).toEqual([]);
      const committed = await admin.post<{ data: { book_code: string } }>(
        `admin/import/${staged.body.data.import_id}/commit`,
      );
      expect(committed.status).toBe(200);
      return committed.body.data.book_code;
    };
    const original = await translationsOf(code);
    expect(original.flat().some((set) => Object.keys(set).length > 0)).toBe(true);
    const copy = await importZip(await makeZip(items));
    expect(await translationsOf(copy)).toEqual(original);

    // An archive written before translations: version 1, and only the three columns it knew.
    const older = items.map((item) => {
      if (item.name === 'book.json') {
        const json = JSON.parse(item.data.toString()) as Record<string, unknown>;
        return { ...item, data: Buffer.from(JSON.stringify({ ...json, version: 1 })) };
      }
      if (!item.name.endsWith('phrases.tsv')) return item;
      const rows = item.data
        .toString()
        .split('\n')
        .map((line) => line.split('\t').slice(0, 3).join('\t'));
      return { ...item, data: Buffer.from(rows.join('\n')) };
    });
    const fromOld = await importZip(await makeZip(older));
    expect((await translationsOf(fromOld)).flat().every((set) => Object.keys(set).length === 0)).toBe(true);
  });

  it('refuses a hostile book archive with a message, writing nothing', async () => {
    const res = await admin.raw(`admin/book/${code}/export`);
    const items = await unzip(Buffer.from(await res.arrayBuffer()));
    const tsvName = 'chapters/001/phrases.tsv';
    const rows = parseImportText(items.find((item) => item.name === tsvName)!.data).rows;
    const db = server.app.get(DataSource);
    const counts = async () =>
      (
        await db.query<Array<{ books: number | string; translations: number | string }>>(
          `SELECT (SELECT COUNT(*) FROM books) AS books, (SELECT COUNT(*) FROM phrase_translations) AS translations`,
        )
      ).map((row) => [Number(row.books), Number(row.translations)])[0];
    const before = await counts();
    const refusedWith = async (header: string, cells: (i: number) => string[]) => {
      const tsv = [header, ...rows.map((row, i) => [row.phrase, '', row.audio!, ...cells(i)].join('\t'))];
      const zip = await makeZip(
        items.map((item) =>
          item.name === tsvName ? { ...item, data: Buffer.from(tsv.join('\n') + '\n') } : item,
        ),
      );
      const data = new FormData();
      data.set('zip', new Blob([zip]), 'book.zip');
      const staged = await admin.post<{ data: { import_id: string; errors: string[] } }>(
        'admin/book/import',
        data,
      );
      expect(staged.status).toBe(200);
      const committed = await admin.post<{ message: string }>(
        `admin/import/${staged.body.data.import_id}/commit`,
      );
      expect(committed.status).toBe(422);
      return [staged.body.data.errors.join(' '), committed.body.message];
    };
    const long = await refusedWith('phrase\tdictionary\taudio\ttranslation:en', (i) => [
      i === 0 ? 'x'.repeat(2001) : 'Fine.',
    ]);
    for (const message of long)
      expect(message).toContain('The en translation is longer than 2000 characters.');
    const languages = Array.from({ length: 4000 }, (_, i) => `translation:x${i}`);
    const wide = await refusedWith(`phrase\tdictionary\taudio\t${languages.join('\t')}`, () =>
      languages.map(() => 'y'),
    );
    for (const message of wide)
      expect(message).toContain(
        'The header has 4000 translation columns; a phrase may have at most 20 languages.',
      );
    expect(await counts()).toEqual(before);
  });

  it('keeps a member’s languages on the profile: canonical, best first, at most 5', async () => {
    const { client } = await newMember(server);
    type Profile = { data: { speaks: string[] }; errors: Record<string, string[]> };
    expect((await client.get<Profile>('user/profile')).body.data.speaks).toEqual([]);
    const saved = await client.put<Profile>('user/profile', {
      speaks: ['pt-br', ' en ', 'PT-BR', 'zh-hant-tw'],
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data.speaks).toEqual(['pt-BR', 'en', 'zh-Hant-TW']);
    expect((await client.get<Profile>('user/profile')).body.data.speaks).toEqual([
      'pt-BR',
      'en',
      'zh-Hant-TW',
    ]);
    const refused = async (speaks: unknown) => {
      const res = await client.put<Profile>('user/profile', { speaks });
      expect([speaks, res.status]).toEqual([speaks, 422]);
      return res.body.errors.speaks;
    };
    expect(await refused(['en', 'de', 'fr', 'it', 'es', 'nl'])).toEqual(['Choose at most 5 languages.']);
    expect(await refused(['en', 'english!'])).toEqual([
      '"english!" is not a language tag (BCP 47, such as en or pt-BR).',
    ]);
    expect(await refused(42)).toEqual([
      'The languages you speak must be a list of language tags, such as ["en", "pt-BR"].',
    ]);
    expect((await client.get<Profile>('user/profile')).body.data.speaks).toEqual([
      'pt-BR',
      'en',
      'zh-Hant-TW',
    ]);
    expect((await client.put<Profile>('user/profile', { speaks: [] })).body.data.speaks).toEqual([]);
    await client.put('user/profile', { speaks: ['de'] });
    expect((await client.put<Profile>('user/profile', { speaks: null })).body.data.speaks).toEqual([]);
  });
});

describe('Demo translations', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    await server.app.get(DemoSeedService).seedOnce();
  });
  afterAll(() => server.close());

  it('gives every demo phrase an English translation, and le-petit-voyage a German one too', async () => {
    const demo = readDemoCatalogue();
    const admin = (await newAdmin(server)).client;
    const list = await new ApiClient(server).get<{ data: Array<{ title: string; book_code: string }> }>(
      'guest/list-book',
    );
    let phrases = 0;
    for (const book of demo.books) {
      const bookCode = list.body.data.find((b) => b.title === book.title)!.book_code;
      for (const chapter of book.chapters) {
        const res = await admin.get<ReaderAnswer>(
          `guest/book/${bookCode}/chapter/${chapter.chapter_no}?translations=en,de`,
        );
        expect(res.status).toBe(200);
        const german = bookCode === 'le-petit-voyage';
        expect(res.body.data.translation_languages).toEqual(german ? ['de', 'en'] : ['en']);
        for (const [i, phrase] of res.body.data.phrases.entries()) {
          // Both undefined would be equal: each demo phrase must have an English text of its own.
          expect(phrase.translations.en).toMatch(/\S/);
          expect(phrase.translations.en).toBe(chapter.phrases[i].translations!.en);
          expect(Boolean(phrase.translations.de)).toBe(german);
          phrases++;
        }
      }
    }
    expect(phrases).toBe(101);
  });
});
