import { DataSource } from 'typeorm';
import { clipsByAccess, firstChapterNo, firstChapterNoSql, isFreeChapter } from './free-chapters';

describe(isFreeChapter.name, () => {
  it.each([
    [1, 1, true],
    [2, 1, false],
    // The first chapter is the lowest number, whatever it is: a book may start at 0 or at 3.
    [0, 0, true],
    [3, 3, true],
    [4, 3, false],
    [1, 3, false],
  ])('chapter %p of a book whose first chapter is %p is free: %p', (chapterNo, first, expected) => {
    expect(isFreeChapter(chapterNo, first)).toBe(expected);
  });

  it('frees nothing when the book has no first chapter', () => {
    expect(isFreeChapter(1, null)).toBe(false);
    expect(isFreeChapter(1, undefined)).toBe(false);
  });
});

describe(firstChapterNo.name, () => {
  it('is the lowest number, in any order', () => {
    expect(firstChapterNo([3, 1, 2])).toBe(1);
    expect(firstChapterNo([7, 5, 9])).toBe(5);
    expect(firstChapterNo([0, 2])).toBe(0);
  });

  it('is null for a book without chapters', () => {
    expect(firstChapterNo([])).toBeNull();
  });
});

describe(firstChapterNoSql.name, () => {
  it('refuses anything but a plain alias', () => {
    expect(() => firstChapterNoSql('c; DROP TABLE books')).toThrow(/alias/);
    expect(firstChapterNoSql('c')).toContain('= c.book_id');
  });
});

describe(clipsByAccess.name, () => {
  let db: DataSource;
  beforeAll(async () => {
    db = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    await db.query('CREATE TABLE chapters (id INTEGER PRIMARY KEY, book_id INTEGER, chapter_no INTEGER)');
    await db.query('CREATE TABLE phrases (id INTEGER PRIMARY KEY, chapter_id INTEGER, audio_path TEXT)');
    // Book 1 starts at chapter 1, book 2 at chapter 5 (its chapter 1 was deleted, say).
    await db.query('INSERT INTO chapters VALUES (1, 1, 1), (2, 1, 2), (3, 2, 5), (4, 2, 6)');
    await db.query(
      `INSERT INTO phrases VALUES (1, 1, 'lines/a.mp3'), (2, 2, 'lines/b.mp3'), (3, 3, 'lines/c.mp3'),
       (4, 4, 'lines/d.mp3')`,
    );
  });
  afterAll(() => db.destroy());

  it('sorts every clip by whether its chapter is its book’s first', async () => {
    const { free, locked } = await clipsByAccess(db);
    expect(free.sort()).toEqual(['lines/a.mp3', 'lines/c.mp3']);
    expect(locked.sort()).toEqual(['lines/b.mp3', 'lines/d.mp3']);
  });

  it('follows a new first chapter', async () => {
    await db.query('INSERT INTO chapters VALUES (5, 2, 4)');
    await db.query(`INSERT INTO phrases VALUES (5, 5, 'lines/e.mp3')`);
    const { free, locked } = await clipsByAccess(db);
    expect(free.sort()).toEqual(['lines/a.mp3', 'lines/e.mp3']);
    expect(locked.sort()).toEqual(['lines/b.mp3', 'lines/c.mp3', 'lines/d.mp3']);
  });
});
