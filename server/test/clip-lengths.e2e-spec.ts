import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DataSource } from 'typeorm';
import { BooksRepository } from '../content/catalogue/repository/books.repository';
import { sql } from '../platform/database/sql';
import { decodedLengthUs } from '../publishing/formats/audio-measures';
import { Audiobooks } from '../publishing/formats/audiobook/audiobooks';
import { probeAudioFile } from '../platform/media/upload-checks';
import { ApiClient, newAdmin } from './api-client';
import { vttUs } from './download-files';
import { bookForm, form } from './fixtures';
import { startServer, type TestServer } from './harness';
import { unzip } from './zips';

const run = promisify(execFile);

interface Listed {
  data: { phrases: Array<{ id: number; duration_ms: number | null }> };
}

/**
 * One measure of a clip's length everywhere (docs/formats.md "Exact lengths"): the API's `duration_ms`
 * is the length ffmpeg decodes, the one the EPUB's SMIL, the subtitles and the M4B use; rows measured
 * the old way (the container's figure) get it in the background after a restart. Real ffmpeg, the
 * test's database and store (SQLite and a folder, or PostgreSQL and S3).
 */
describe('Clip lengths: the decoded length everywhere', () => {
  let server: TestServer;
  let admin: ApiClient;
  let token: string;
  let code: string;
  let bookId: number;
  let chapterId: number;
  const work = mkdtempSync(join(tmpdir(), 'clip-lengths-'));
  /** The fixture MP3's length as its container says (the old measure): 3,004 ms. */
  let containerMs: number;

  beforeAll(async () => {
    const mp3 = join(work, 'clip.mp3');
    const ogg = join(work, 'tone.ogg');
    const wav = join(work, 'tone.wav');
    await run('cp', [join(__dirname, 'fixtures', 'clip.mp3'), mp3]);
    const tone = (file: string, codec: string[], rate: number) =>
      run('ffmpeg', [
        ...['-v', 'error', '-f', 'lavfi', '-i', `sine=frequency=440:duration=0.7:sample_rate=${rate}`],
        ...codec,
        '-y',
        file,
      ]);
    await tone(ogg, ['-c:a', 'libvorbis'], 48_000);
    await tone(wav, ['-c:a', 'pcm_s16le'], 22_050);
    containerMs = (await probeAudioFile(mp3)).durationMs!;

    server = await startServer();
    const { email, password } = await newAdmin(server);
    token = (await new ApiClient(server).post<{ token: string }>('user/login', { email, password })).body
      .token;
    admin = new ApiClient(server, token);
    const book = await admin.post<{ data: { id: number; book_code: string } }>('admin/book', bookForm());
    code = book.body.data.book_code;
    bookId = book.body.data.id;
    chapterId = (
      await admin.post<{ data: { id: number } }>('admin/chapter', {
        title: 'Eins',
        chapter_no: 1,
        book_id: book.body.data.id,
      })
    ).body.data.id;
    for (const [i, file] of [mp3, ogg, wav, mp3].entries()) {
      const res = await admin.post(
        'admin/phrase',
        form({
          phrase: `Satz ${i + 1}.`,
          dictionary: 'Satz — sentence',
          chapter_id: chapterId,
          line_audio: [new Blob([readFileSync(file)]), file.split('/').pop()!],
        }),
      );
      if (res.status !== 200) throw new Error(res.text);
    }
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  const phraseMs = async () =>
    (await admin.get<Listed>(`admin/phrase?chapter_id=${chapterId}`)).body.data.phrases.map(
      (phrase) => phrase.duration_ms,
    );
  const chapterMs = async () =>
    (
      await admin.get<{ data: { chapters: Array<{ id: number; duration_ms: number }> } }>(
        `admin/chapter?book_id=${bookId}`,
      )
    ).body.data.chapters.find((chapter) => chapter.id === chapterId)!.duration_ms;
  const bookMs = async () =>
    (await admin.get<{ data: { duration_ms: number | null } }>(`admin/book/${code}`)).body.data.duration_ms;
  const sampleMs = async () =>
    (await admin.get<{ data: { sample_audio_ms: number | null } }>(`guest/book-detail/${code}`)).body.data
      .sample_audio_ms;

  async function epub() {
    const res = await fetch(`${server.baseUrl}/api/v1/downloads/${code}/epub`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    return unzip(Buffer.from(await res.arrayBuffer()));
  }

  /** Each clip's span in the EPUB's SMIL, in microseconds, in reading order. */
  async function smilSpansUs(): Promise<number[]> {
    const smil = (await epub())
      .find((item) => item.name === 'OEBPS/smil/chapter-1.smil')!
      .data.toString('utf8');
    return [...smil.matchAll(/clipBegin="0s" clipEnd="([\d.]+)s"/g)].map((m) =>
      Math.round(Number(m[1]) * 1e6),
    );
  }

  it("gives each phrase its clip's decoded length: the EPUB's span, the subtitles' cue, the M4B's mark", async () => {
    const listed = await phraseMs();
    // The container's figure (what music-metadata read at upload) is not what a player plays.
    expect(listed[0]).not.toBe(containerMs);
    const spans = await smilSpansUs();
    expect(listed).toEqual(spans.map((us) => Math.round(us / 1000)));

    const vtt = await (
      await fetch(`${server.baseUrl}/api/v1/downloads/${code}/chapter/1/subtitles.vtt`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).text();
    const cues = [...vtt.matchAll(/([\d:.]+) --> ([\d:.]+)/g)].map((m) => [vttUs(m[1]), vttUs(m[2])]);
    expect(cues).toHaveLength(listed.length);
    // Cue times are rounded to the millisecond once, from exact sums: each is within a rounding of its clip.
    cues.forEach(([start, end], i) =>
      expect(Math.abs((end - start) / 1000 - listed[i]!)).toBeLessThanOrEqual(1),
    );
    const total = listed.reduce<number>((sum, ms) => sum + ms!, 0);
    expect(Math.abs(cues[cues.length - 1][1] / 1000 - total)).toBeLessThanOrEqual(listed.length / 2);
    expect(await chapterMs()).toBe(total);
    expect(await bookMs()).toBe(total);

    // The M4B's chapter mark: the clips' decoded samples at 44.1 kHz, each within a sample of its length.
    const audiobooks = server.app.get(Audiobooks);
    const book = (await server.app.get(BooksRepository).byCode(code))!;
    let answer = await audiobooks.get(book, 'full');
    while (!answer.ready) {
      await new Promise((done) => setTimeout(done, 200));
      answer = await audiobooks.get(book, 'full');
    }
    const m4b = join(work, 'book.m4b');
    const chunks: Buffer[] = [];
    for await (const chunk of await audiobooks.read(answer.key)) chunks.push(chunk as Buffer);
    writeFileSync(m4b, Buffer.concat(chunks));
    const probed = await run('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_chapters', m4b]);
    const [mark] = (JSON.parse(probed.stdout) as { chapters: Array<{ end_time: string }> }).chapters;
    expect(Math.abs(Number(mark.end_time) * 1000 - total)).toBeLessThanOrEqual(listed.length);
  }, 120_000);

  it('puts MP3 clips in the EPUB without their ID3 tags: ffprobe reads them without a warning', async () => {
    // The fixture's tag has a UTF-16 comment without its byte order mark, as the demo's clips had.
    const stored = join(work, 'clip.mp3');
    expect((await run('ffprobe', ['-v', 'error', '-hide_banner', stored])).stderr).toMatch(/BOM|comment/);
    const mp3s = (await epub()).filter((item) => item.name.endsWith('.mp3'));
    expect(mp3s).toHaveLength(2);
    for (const [i, item] of mp3s.entries()) {
      const clip = join(work, `from-epub-${i}.mp3`);
      writeFileSync(clip, item.data);
      expect(item.data.subarray(0, 3).toString('latin1')).not.toBe('ID3');
      expect((await run('ffprobe', ['-v', 'error', '-hide_banner', clip])).stderr).toBe('');
      // The audio itself is untouched: it decodes to the same samples.
      expect(await decodedLengthUs(clip)).toBe(await decodedLengthUs(stored));
    }
  });

  it('refuses an upload ffmpeg cannot decode (every export would fail on it), naming the field', async () => {
    // A WAV header and no samples: it passes the type check by its bytes, but there is no audio to play.
    const header = Buffer.alloc(44);
    header.write('RIFF', 0, 'latin1');
    header.writeUInt32LE(36, 4);
    header.write('WAVEfmt ', 8, 'latin1');
    header.writeUInt32LE(16, 16);
    header.writeUInt16LE(1, 20);
    header.writeUInt16LE(1, 22);
    header.writeUInt32LE(44_100, 24);
    header.writeUInt32LE(88_200, 28);
    header.writeUInt16LE(2, 32);
    header.writeUInt16LE(16, 34);
    header.write('data', 36, 'latin1');
    const res = await admin.post(
      'admin/phrase',
      form({
        phrase: 'Stumm.',
        dictionary: 'stumm — silent',
        chapter_id: chapterId,
        line_audio: [new Blob([header]), 'silent.wav'],
      }),
    );
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: expect.any(String),
      errors: { line_audio: ['The audio file is damaged or not a supported format.'] },
    });
    expect(await phraseMs()).toHaveLength(4);
  });

  it('gives rows measured the old way their decoded length after a restart, totals too', async () => {
    const decoded = await phraseMs();
    const decodedSample = await sampleMs();
    expect(decodedSample).not.toBe(containerMs);
    // Rows as an older version wrote them: the container's figure, no kept measure.
    const db = server.app.get(DataSource);
    await sql(db, `UPDATE phrases SET audio_ms = audio_ms + 26 WHERE chapter_id = ?`, [chapterId]);
    await sql(db, `UPDATE books SET sample_audio_ms = ? WHERE book_code = ?`, [containerMs, code]);
    await sql(db, `DELETE FROM audio_measures`);
    await sql(
      db,
      `UPDATE chapters SET length_ms = (SELECT SUM(audio_ms) FROM phrases WHERE chapter_id = ?) WHERE id = ?`,
      [chapterId, chapterId],
    );
    expect(await phraseMs()).toEqual(decoded.map((ms) => ms! + 26));

    await server.close(true);
    server = await startServer(server.storageDir);
    admin = new ApiClient(server, token);
    const until = Date.now() + 60_000;
    while (JSON.stringify(await phraseMs()) !== JSON.stringify(decoded) && Date.now() < until)
      await new Promise((done) => setTimeout(done, 200));
    expect(await phraseMs()).toEqual(decoded);
    const total = decoded.reduce<number>((sum, ms) => sum + ms!, 0);
    expect(await chapterMs()).toBe(total);
    expect(await bookMs()).toBe(total);
    expect(await sampleMs()).toBe(decodedSample);
    // And they still match what the EPUB says.
    expect((await smilSpansUs()).map((us) => Math.round(us / 1000))).toEqual(decoded);
  }, 120_000);
});
