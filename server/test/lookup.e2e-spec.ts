import { readFileSync } from 'node:fs';
import { DataSource } from 'typeorm';
import { Dictionary } from '../content/dictionaries/dictionary.entity';
import { DictionaryEntry } from '../content/dictionaries/dictionary-entry.entity';
import { foldWord } from '../content/dictionaries/fold';
import { User } from '../accounts/users/user.entity';
import { WordForm, WordFormSet } from '../content/word-forms/word-form.entity';
import { ApiClient, newAdmin, newMember } from './api-client';
import { controlClock, MINUTE } from './clock';
import { parseCsv } from './csv';
import { bookForm, fixture, form } from './fixtures';
import { startServer, type TestServer } from './harness';

interface Entry {
  headword: string;
  definition: string;
  pos: string | null;
  lemma: string | null;
  dictionary: { id: number; name: string; attribution: string | null };
}
interface Lookup {
  word: string;
  lang: string | null;
  target: string;
  matched: string | null;
  lemmas: string[];
  glossary: { term: string; meaning: string } | null;
  entries: Entry[];
}
type LookupAnswer = { data: Lookup };
type Word = { id: number; term: string; meaning: string; source: string | null; source_name: string | null };

describe('Word lookup', () => {
  let server: TestServer;
  let admin: ApiClient;
  let db: DataSource;
  /** A phrase of the free chapter, and one of a locked chapter, of a Spanish book. */
  let freePhrase: number;
  let lockedPhrase: number;
  let bookCode: string;
  const dict: Record<string, Dictionary> = {};

  async function addDictionary(
    name: string,
    source: string,
    target: string,
    generation: number,
    entries: Array<[headword: string, definition: string, pos?: string]>,
    entryGeneration = generation,
  ): Promise<Dictionary> {
    const now = new Date();
    const saved = await db.getRepository(Dictionary).save({
      name,
      source,
      target,
      format: 'tsv',
      entries: entries.length,
      licence: null,
      attribution: `${name}: attribution`,
      generation,
      createdAt: now,
      updatedAt: now,
    });
    await db.getRepository(DictionaryEntry).insert(
      entries.map(([headword, definition, pos]) => ({
        dictionaryId: saved.id,
        generation: entryGeneration,
        headword,
        folded: foldWord(headword),
        definition,
        pos: pos ?? null,
      })),
    );
    return saved;
  }

  async function addForms(lang: string, origin: 'hunspell' | 'list', generation: number, pairs: string[][]) {
    await db
      .getRepository(WordForm)
      .insert(pairs.map(([form, lemma]) => ({ lang, origin, generation, form, lemma })));
  }

  beforeAll(async () => {
    server = await startServer();
    db = server.app.get(DataSource);
    admin = (await newAdmin(server)).client;
    const book = await admin.post<{ data: { id: number; book_code: string } }>(
      'admin/book',
      bookForm({ language: 'es' }),
    );
    bookCode = book.body.data.book_code;
    const phrases: number[] = [];
    for (const n of [1, 2]) {
      const chapter = await admin.post<{ data: { id: number } }>('admin/chapter', {
        title: `Capítulo ${n}`,
        chapter_no: n,
        book_id: book.body.data.id,
      });
      const phrase = await admin.post<{ data: { id: number } }>(
        'admin/phrase',
        form({
          chapter_id: chapter.body.data.id,
          phrase: 'Las casas de la mesa.',
          dictionary: 'las casas — the houses\nmesa: table',
          line_audio: [fixture('clip.mp3'), 'clip.mp3'],
        }),
      );
      phrases.push(phrase.body.data.id);
    }
    [freePhrase, lockedPhrase] = phrases;

    // Written straight to the tables, as an import leaves them (generations: docs/lookup.md).
    dict.first = await addDictionary('First es-en', 'es', 'en', 2, [
      ['casa', 'house', 'n'],
      ['casar', 'to marry', 'v'],
      ['Árbol', 'tree', 'n'],
      ['ser', 'to be', 'v'],
    ]);
    // Rows of an older generation of the same dictionary: replaced, never shown.
    await db.getRepository(DictionaryEntry).insert({
      dictionaryId: dict.first.id,
      generation: 1,
      headword: 'casa',
      folded: 'casa',
      definition: 'OLD',
    });
    dict.second = await addDictionary('Second es-en', 'es', 'en', 1, [['casar', 'to wed']]);
    // A first import not finished: hidden.
    dict.hidden = await addDictionary('Hidden es-en', 'es', 'en', 0, [['casas', 'hidden']]);
    dict.french = await addDictionary('Spanish-French', 'es', 'fr', 1, [['casa', 'maison']]);
    dict.german = await addDictionary('German-English', 'de', 'en', 1, [['casa', 'not Spanish']]);

    const now = new Date();
    await db.getRepository(WordFormSet).insert([
      { lang: 'es', origin: 'hunspell', generation: 3, forms: 2, lemmas: 2, updatedAt: now },
      { lang: 'es', origin: 'list', generation: 1, forms: 2, lemmas: 2, updatedAt: now },
    ]);
    await addForms('es', 'hunspell', 3, [
      ['casas', 'casa'],
      ['casas', 'casar'],
    ]);
    await addForms('es', 'hunspell', 2, [['casas', 'cosa']]); // an older generation
    await addForms('es', 'list', 1, [
      ['fue', 'ir'],
      ['fue', 'ser'],
    ]);
  });
  afterAll(() => server.close());

  const lookup = (client: ApiClient, query: string) => client.get<LookupAnswer>(`lookup?${query}`);
  const entry = (
    d: Dictionary,
    headword: string,
    definition: string,
    pos: string | null,
    lemma: string | null,
  ) => ({
    headword,
    definition,
    pos,
    lemma,
    dictionary: { id: d.id, name: d.name, attribution: `${d.name}: attribution` },
  });

  it('finds the exact form, in live generations only, and lets shared caches keep a visitor’s answer', async () => {
    const res = await lookup(new ApiClient(server), 'lang=es&word=casa');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        word: 'casa',
        lang: 'es',
        target: 'en',
        matched: 'form',
        lemmas: [],
        glossary: null,
        entries: [entry(dict.first, 'casa', 'house', 'n', null)],
      },
    });
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('vary')).toMatch(/Authorization/);
    // A capital (the start of a sentence) finds the lower-case headword; a regional tag its language's.
    const capital = await lookup(new ApiClient(server), 'lang=es-MX&word=Casa');
    expect([capital.body.data.matched, capital.body.data.lang, capital.body.data.entries]).toEqual([
      'form',
      'es-MX',
      [entry(dict.first, 'casa', 'house', 'n', null)],
    ]);
  });

  it('finds every lemma of an ambiguous form, those in more dictionaries first', async () => {
    const res = await lookup(new ApiClient(server), 'lang=es&word=casas');
    expect(res.body.data).toEqual({
      word: 'casas',
      lang: 'es',
      target: 'en',
      matched: 'lemma',
      lemmas: ['casar', 'casa'],
      glossary: null,
      entries: [
        entry(dict.first, 'casar', 'to marry', 'v', 'casar'),
        entry(dict.second, 'casar', 'to wed', null, 'casar'),
        entry(dict.first, 'casa', 'house', 'n', 'casa'),
      ],
    });
    // From the list of irregular forms: a lemma with an entry before one without.
    const fue = await lookup(new ApiClient(server), 'lang=es&word=Fue');
    expect([fue.body.data.matched, fue.body.data.lemmas, fue.body.data.entries]).toEqual([
      'lemma',
      ['ser', 'ir'],
      [entry(dict.first, 'ser', 'to be', 'v', 'ser')],
    ]);
  });

  it('falls back to the case- and accent-folded headword, and says when nothing matched', async () => {
    const folded = await lookup(new ApiClient(server), 'lang=es&word=ARBOL');
    expect(folded.body.data).toMatchObject({
      matched: 'folded',
      lemmas: [],
      entries: [entry(dict.first, 'Árbol', 'tree', 'n', null)],
    });
    const none = await lookup(new ApiClient(server), 'lang=es&word=zzz');
    expect(none.body.data).toEqual({
      word: 'zzz',
      lang: 'es',
      target: 'en',
      matched: null,
      lemmas: [],
      glossary: null,
      entries: [],
    });
  });

  it('takes the target asked for, else the first of the member’s languages with a dictionary, else English', async () => {
    const visitor = new ApiClient(server);
    for (const target of ['fr', 'fr-CA']) {
      const res = await lookup(visitor, `lang=es&word=casa&target=${target}`);
      expect([res.body.data.target, res.body.data.entries]).toEqual([
        target,
        [entry(dict.french, 'casa', 'maison', null, null)],
      ]);
    }
    const member = await newMember(server);
    const speaks = (tags: string | null) =>
      db.getRepository(User).update({ id: member.id }, { speaks: tags });
    const targetOf = async () => {
      const res = await lookup(member.client, 'lang=es&word=casa');
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      return [res.body.data.target, res.body.data.entries.map((e) => e.definition)];
    };
    await speaks('de,fr,en');
    expect(await targetOf()).toEqual(['fr', ['maison']]);
    await speaks('de,pt');
    expect(await targetOf()).toEqual(['en', ['house']]);
    await speaks(null);
    expect(await targetOf()).toEqual(['en', ['house']]);
    // Asked for explicitly, a target without a dictionary finds nothing.
    const german = await lookup(member.client, 'lang=es&word=casa&target=de');
    expect([german.body.data.target, german.body.data.matched, german.body.data.entries]).toEqual([
      'de',
      null,
      [],
    ]);
  });

  it('looks in the phrase’s glossary first, privately, and refuses a chapter the caller may not read', async () => {
    const visitor = new ApiClient(server);
    const res = await lookup(visitor, `lang=es&word=casas&phrase_id=${freePhrase}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.body.data).toMatchObject({
      matched: 'glossary',
      glossary: { term: 'las casas', meaning: 'the houses' },
      lemmas: ['casar', 'casa'],
    });
    // The dictionaries still answer beside the glossary.
    expect(res.body.data.entries).toHaveLength(3);
    const mesa = await lookup(visitor, `lang=es&word=Mesa&phrase_id=${freePhrase}`);
    expect([mesa.body.data.matched, mesa.body.data.glossary]).toEqual([
      'glossary',
      { term: 'mesa', meaning: 'table' },
    ]);
    // A word of the phrase not in its glossary goes on to the dictionaries.
    const casa = await lookup(visitor, `lang=es&word=casa&phrase_id=${freePhrase}`);
    expect([casa.body.data.matched, casa.body.data.glossary]).toEqual(['form', null]);

    const locked = `lang=es&word=casas&phrase_id=${lockedPhrase}`;
    const free = (await newMember(server)).client;
    for (const client of [visitor, free]) {
      const refused = await lookup(client, locked);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ message: expect.any(String) });
      expect(JSON.stringify(refused.body)).not.toMatch(/houses/);
      expect(refused.headers.get('cache-control')).toBe('private, no-store');
    }
    const granted = await lookup(admin, locked);
    expect([granted.status, granted.body.data.glossary]).toEqual([
      200,
      { term: 'las casas', meaning: 'the houses' },
    ]);
    expect((await lookup(visitor, 'lang=es&word=casa&phrase_id=999999')).status).toBe(404);
  });

  it('refuses a bad query with a 422 by field', async () => {
    const visitor = new ApiClient(server);
    const cases: Array<[string, string]> = [
      ['word=casa', 'lang'],
      ['lang=es', 'word'],
      ['lang=es&word=%20%20', 'word'],
      [`lang=es&word=${'a'.repeat(101)}`, 'word'],
      ['lang=spanish&word=casa', 'lang'],
      ['lang=es&word=casa&target=x_y', 'target'],
      ['lang=es&word=casa&phrase_id=abc', 'phrase_id'],
      ['lang=es&lang=fr&word=casa', 'lang'],
    ];
    for (const [query, field] of cases) {
      const res = await lookup(visitor, query);
      expect([query, res.status, Object.keys((res.body as unknown as { errors: object }).errors)]).toEqual([
        query,
        422,
        [field],
      ]);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
    }
    expect((await lookup(visitor, `lang=es&word=${'a'.repeat(100)}`)).status).toBe(200);
  });

  it('allows 600 lookups a minute per address, then answers 429 with Retry-After', async () => {
    // The server's clock stands still, so a slow machine cannot let the minute pass mid-loop.
    const clock = controlClock(server);
    try {
      const busy = new ApiClient(server);
      // Cheap requests (a 422 each): every request counts, valid or not.
      for (let sent = 0; sent < 600; sent += 25) {
        const statuses = await Promise.all(Array.from({ length: 25 }, () => busy.get('lookup?lang=es')));
        expect(statuses.map((res) => res.status)).toEqual(Array(25).fill(422));
      }
      const refused = await lookup(busy, 'lang=es&word=casa');
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ message: 'Too many lookups. Please wait a moment and try again.' });
      expect(refused.headers.get('retry-after')).toBe('60');
      expect(refused.headers.get('cache-control')).toBe('private, no-store');
      // Another address is not held back; this one may look up again once its minute is over.
      expect((await lookup(new ApiClient(server), 'lang=es&word=casa')).status).toBe(200);
      clock.advance(MINUTE - 1000);
      expect(await lookup(busy, 'lang=es&word=casa')).toMatchObject({ status: 429 });
      expect((await lookup(busy, 'lang=es&word=casa')).headers.get('retry-after')).toBe('1');
      clock.advance(1000);
      expect((await lookup(busy, 'lang=es&word=casa')).status).toBe(200);
    } finally {
      clock.restore();
    }
  });

  it('saves a dictionary meaning of a word as a card that says which dictionary, and refuses a made-up one', async () => {
    const { client } = await newMember(server);
    const save = (body: Record<string, unknown>) =>
      client.post<{ data: Word }>('user/words', { phrase_id: freePhrase, ...body });
    const saved = await save({ term: 'casas', meaning: 'to wed', source: 'dictionary' });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({
      term: 'casas',
      meaning: 'to wed',
      source: 'dictionary',
      source_name: 'Second es-en',
      phrase: 'Las casas de la mesa.',
      audio: expect.stringMatching(/^\/media\/lines\/\w+\.mp3$/),
    });
    // Named by the lookup's dictionary id; the folded spelling's entry counts too.
    const tree = await save({
      term: 'ARBOL',
      meaning: ' tree ',
      source: 'dictionary',
      dictionary_id: dict.first.id,
    });
    expect(tree.body.data).toMatchObject({ term: 'ARBOL', meaning: 'tree', source_name: 'First es-en' });
    const glossary = await save({ term: 'mesa' });
    expect(glossary.body.data).toMatchObject({
      term: 'mesa',
      meaning: 'table',
      source: 'glossary',
      source_name: null,
    });

    const list = await client.get<{ data: Word[] }>('user/words');
    expect(list.body.data.map((w) => [w.term, w.source, w.source_name])).toEqual([
      ['mesa', 'glossary', null],
      ['ARBOL', 'dictionary', 'First es-en'],
      ['casas', 'dictionary', 'Second es-en'],
    ]);
    const csv = parseCsv((await (await client.raw('user/words/export')).text()).replace(/^\uFEFF/, ''));
    expect(csv.slice(1).map((row) => [row[0], ...row.slice(-2)])).toEqual(
      expect.arrayContaining([
        ['casas', 'dictionary', 'Second es-en'],
        ['mesa', 'glossary', ''],
      ]),
    );
    // Another dictionary meaning of the same word of the phrase: the one card takes it (the sheet's Save on a
    // second entry), still one card.
    const other = await save({
      term: 'casas',
      meaning: 'to marry',
      source: 'dictionary',
      dictionary_id: dict.first.id,
    });
    expect(other.body.data).toMatchObject({
      id: saved.body.data.id,
      meaning: 'to marry',
      source: 'dictionary',
      source_name: 'First es-en',
    });
    expect((await client.get<{ data: Word[] }>('user/words')).body.data).toHaveLength(3);

    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ term: 'casas', meaning: 'a made-up meaning', source: 'dictionary' }, 'meaning'],
      // Another dictionary's, a hidden one's, an old generation's, another language's.
      [{ term: 'casas', meaning: 'to wed', source: 'dictionary', dictionary_id: dict.first.id }, 'meaning'],
      [{ term: 'casas', meaning: 'hidden', source: 'dictionary' }, 'meaning'],
      [{ term: 'casa', meaning: 'OLD', source: 'dictionary' }, 'meaning'],
      [{ term: 'casa', meaning: 'not Spanish', source: 'dictionary' }, 'meaning'],
      [{ term: 'casas', source: 'dictionary' }, 'meaning'],
      [{ term: 'casas', meaning: 'x'.repeat(1001), source: 'dictionary' }, 'meaning'],
      [{ term: 'casas', meaning: 'to wed', source: 'elsewhere' }, 'source'],
      // Without source "dictionary", the glossary rule as before.
      [{ term: 'casas', meaning: 'to wed' }, 'term'],
    ];
    for (const [body, field] of refusals) {
      const res = await save(body);
      expect([body, res.status, Object.keys((res.body as unknown as { errors: object }).errors)]).toEqual([
        body,
        422,
        [field],
      ]);
    }
    const locked = await client.post('user/words', {
      phrase_id: lockedPhrase,
      term: 'casas',
      meaning: 'to wed',
      source: 'dictionary',
    });
    expect(locked.status).toBe(403);
  });

  it('gives a chapter’s lookups for a download to take with it, and refuses a locked chapter', async () => {
    type Bundle = {
      data: {
        lang: string;
        target: string;
        complete: boolean;
        words: Record<string, { matched: string; lemmas: string[]; entries: Entry[] }>;
      };
    };
    const res = await new ApiClient(server).get<Bundle>(`lookup/chapter?book_code=${bookCode}&chapter_no=1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    // "Las casas de la mesa.": only "casas" is in a dictionary (through its lemmas).
    expect(res.body.data).toEqual({
      lang: 'es',
      target: 'en',
      complete: true,
      words: {
        casas: {
          matched: 'lemma',
          lemmas: ['casar', 'casa'],
          entries: [
            entry(dict.first, 'casar', 'to marry', 'v', 'casar'),
            entry(dict.second, 'casar', 'to wed', null, 'casar'),
            entry(dict.first, 'casa', 'house', 'n', 'casa'),
          ],
        },
      },
    });
    const { client } = await newMember(server);
    expect((await client.get(`lookup/chapter?book_code=${bookCode}&chapter_no=2`)).status).toBe(403);
    expect((await client.get(`lookup/chapter?book_code=${bookCode}&chapter_no=9`)).status).toBe(404);
    const bad = await client.get<{ errors: Record<string, string[]> }>(
      'lookup/chapter?book_code=&chapter_no=x',
    );
    expect([bad.status, Object.keys(bad.body.errors).sort()]).toEqual([422, ['book_code', 'chapter_no']]);
  });

  it('takes the language of the phrase’s book when none is sent, and composes the word (NFC)', async () => {
    const visitor = new ApiClient(server);
    for (const query of [`word=casas&phrase_id=${freePhrase}`, `lang=&word=casas&phrase_id=${freePhrase}`]) {
      const res = await lookup(visitor, query);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ lang: 'es', matched: 'glossary', lemmas: ['casar', 'casa'] });
    }
    expect((await lookup(visitor, 'word=casas')).status).toBe(422);
    // "Árbol" written as A + a combining acute accent is the headword itself, not a folded match.
    const decomposed = await lookup(visitor, `lang=es&word=${encodeURIComponent('A\u0301rbol')}`);
    expect(decomposed.body.data).toMatchObject({ word: 'Árbol', matched: 'form' });
  });

  it('looks a word up in Debian’s FreeDict Spanish-English, imported, and saves the first lines of its entry', async () => {
    const files = new FormData();
    for (const part of ['index', 'dict.dz'])
      files.append(
        'files',
        new Blob([readFileSync(`/usr/share/dictd/freedict-spa-eng.${part}`)]),
        `freedict-spa-eng.${part}`,
      );
    files.set('source', 'es');
    files.set('target', 'en');
    const imported = await admin.post<{ data: { id: number; name: string } }>('admin/dictionary', files);
    expect(imported.status).toBe(201);
    try {
      const res = await lookup(new ApiClient(server), 'lang=es&word=tener');
      expect(res.body.data.matched).toBe('form');
      const tener = res.body.data.entries.find((e) => e.dictionary.id === imported.body.data.id)!;
      expect(tener.definition.split('\n').length).toBeGreaterThan(2);
      expect(tener.dictionary.attribution).toMatch(/FreeDict/);
      // The reader saves a long entry's first lines (docs/practice.md, "Word lookups").
      const { client } = await newMember(server);
      const firstLines = tener.definition.split('\n').slice(0, 2).join('\n');
      const saved = await client.post<{ data: Word }>('user/words', {
        phrase_id: freePhrase,
        term: 'tener',
        meaning: firstLines,
        source: 'dictionary',
      });
      expect(saved.status).toBe(200);
      expect(saved.body.data).toMatchObject({
        meaning: firstLines,
        source: 'dictionary',
        source_name: imported.body.data.name,
      });
    } finally {
      await admin.delete(`admin/dictionary/${imported.body.data.id}`);
    }
  });
});
