import { Injectable, Logger, StreamableFile } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { extname } from 'node:path';
import { Readable, type PassThrough } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ZipFile } from 'yazl';
import { MediaService } from '../../platform/media/media.service';
import { exportedClip } from '../../platform/media/id3';
import { storedEntries } from '../../platform/media/media-zip';
import { AUDIO_EXTENSIONS } from '../../platform/media/sniff';
import type { User } from '../../accounts/users/user.entity';
import type { CardKind } from './saved-word.entity';
import type { WordResponse } from './words.dto';
import { WordsService, type WordRow } from './words.service';

export const ANKI_CSV_NAME = 'lingonovel-words.csv';
export const ANKI_ZIP_NAME = 'lingonovel-words-anki.zip';
export const ANKI_README_NAME = 'README.txt';

/** How to import the deck with its audio: Anki's CSV import does not take the clips by itself. */
export const ANKI_README = [
  'Lingonovel words for Anki',
  '=========================',
  '',
  `This zip holds ${ANKI_CSV_NAME} (one card per saved word or phrase) and the narrator's clips its cards play`,
  '(the lingonovel-....mp3 and similar files). Anki imports them in two steps: the clips go into its media',
  'folder, then the CSV is imported. You need Anki 2.1.55 or later.',
  '',
  '1. Unzip this file.',
  `2. Copy every audio file (all the files but ${ANKI_CSV_NAME} and this README.txt) into the`,
  '   "collection.media" folder of your Anki profile (close Anki first):',
  '     Windows: %APPDATA%\\Anki2\\<your profile>\\collection.media',
  '     macOS:   ~/Library/Application Support/Anki2/<your profile>/collection.media',
  '     Linux:   ~/.local/share/Anki2/<your profile>/collection.media',
  `3. Open Anki and choose File > Import, then pick ${ANKI_CSV_NAME}. Anki reads the separator and`,
  '   the columns from the first lines of the file: Term, Meaning, Phrase, Book, Chapter, Audio, Source',
  "   (where a word's meaning came from: the glossary, or a dictionary's name), and the tags (word or",
  '   phrase) from the last one.',
  '   Pick a note type and a deck, and map the columns to its fields. Put the Audio column in a field',
  '   shown on the back of the card: its [sound:...] tag plays the phrase the word came from.',
  '4. Press Import. Tools > Check Media should then report no missing files.',
  '',
  "A phrase card (tag phrase) is for listening: its Term is the phrase's clip, its Meaning the phrase's",
  'text, its translation and its glossary.',
  '',
  'A card whose chapter your plan does not open comes without a clip.',
  '',
].join('\r\n');

/** Anki's file header: it then imports without asking for the separator, HTML or the columns. */
export const ANKI_HEADER = [
  '#separator:Comma',
  '#html:false',
  '#columns:Term,Meaning,Phrase,Book,Chapter,Audio,Source,Tags',
  '#tags column:8',
];

const KNOWN_EXTENSIONS = new Set<string>(Object.values(AUDIO_EXTENSIONS));
/**
 * Words handled between two turns of the event loop: a member may have saved thousands, and other
 * requests are served in between.
 */
const ROWS_PER_TURN = 200;
/** Clips looked up at once: a folder's stat or a bucket's HEAD each, without flooding either. */
const LOOKUPS_AT_ONCE = 8;

/** One card's fields, and the storage path of its clip (null when the member may not hear it). */
export interface AnkiWord {
  phraseId: number;
  kind: CardKind;
  term: string;
  meaning: string;
  /** Where a word's meaning came from: "glossary", or the dictionary's name; empty for a phrase card. */
  source: string;
  phrase: string;
  book: string;
  chapter: number;
  clip: string | null;
}

/** What the back of a phrase card says: the phrase, its translation, its glossary, one per line. */
export function phraseBack(card: Pick<WordResponse, 'phrase' | 'translation' | 'glossary'>): string {
  return [
    card.phrase,
    card.translation?.text,
    ...card.glossary.map((entry) => (entry.meaning ? `${entry.term} — ${entry.meaning}` : entry.term)),
  ]
    .filter(Boolean)
    .join('\n');
}

/**
 * A clip's name in the zip and in Anki's media folder, which every deck shares: the prefix keeps it apart
 * from other decks' media, the phrase id and a hash of the stored path make it unique per clip and the
 * same in every export (a replaced clip has a new path, so Anki takes it as a new file).
 */
export function clipName(phraseId: number, path: string): string | null {
  const extension = extname(path).slice(1).toLowerCase();
  if (!KNOWN_EXTENSIONS.has(extension)) return null;
  const hash = createHash('sha256').update(path).digest('hex').slice(0, 12);
  return `lingonovel-${phraseId}-${hash}.${extension}`;
}

/**
 * RFC 4180 quoting, as csv.ts writes it, but not csv.ts's toCsv: its BOM would hide the header, which Anki
 * reads only at the very start of the file, and its formula guard would put a stray apostrophe on cards
 * (Anki runs no formulas). Anki skips any line that starts with `#` as a comment, so such a cell is quoted.
 */
function ankiCell(value: string | number): string {
  const text = String(value);
  return /[",\r\n]|^#/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The deck's CSV, in pieces: the header lines, then the rows, with `[sound:NAME]` for each clip in the
 * zip, a turn of the event loop given back every ROWS_PER_TURN rows. It is never one big string.
 */
export async function* ankiCsv(words: AnkiWord[], sounds: Array<string | null>): AsyncGenerator<Buffer> {
  yield Buffer.from(ANKI_HEADER.join('\r\n') + '\r\n', 'utf8');
  for (let start = 0; start < words.length; start += ROWS_PER_TURN) {
    await nextTurn();
    const rows = words.slice(start, start + ROWS_PER_TURN).map((word, i) => {
      const sound = sounds[start + i] ? `[sound:${sounds[start + i]}]` : '';
      // A phrase card's front is its clip (its text when the member may not hear it), its back the rest.
      const phraseCard = word.kind === 'phrase';
      return [
        phraseCard ? sound || word.phrase : word.term,
        word.meaning,
        word.phrase,
        word.book,
        word.chapter,
        sound,
        word.source,
        word.kind,
      ]
        .map(ankiCell)
        .join(',');
    });
    yield Buffer.from(rows.join('\r\n') + '\r\n', 'utf8');
  }
}

/**
 * A member's words for Anki, which cannot fetch URLs: a zip of a CSV for Anki's import, the clips for
 * its media folder, and a README.txt that says how to import both. The zip is streamed, one clip read at a time, never held in memory.
 */
@Injectable()
export class AnkiExport {
  private readonly logger = new Logger(AnkiExport.name);

  constructor(
    private readonly words: WordsService,
    private readonly media: MediaService,
  ) {}

  /** `languages`: the learner's, best first, for phrase cards' translations ([]: the member's "I speak"). */
  async zip(user: User, languages: string[] = []): Promise<StreamableFile> {
    const words = await this.load(user, languages);
    const clips = new Map<string, string>();
    const names: Array<string | null> = [];
    for (const [i, word] of words.entries()) {
      if (i % ROWS_PER_TURN === ROWS_PER_TURN - 1) await nextTurn();
      const name = word.clip ? clipName(word.phraseId, word.clip) : null;
      if (name && word.clip) clips.set(name, word.clip);
      names.push(name);
    }
    // Checked before the first byte goes out: once the headers are sent, a missing file could only cut the
    // download short. A clip missing now leaves its cells empty.
    await this.dropMissing(clips);
    const sounds = names.map((name) => (name && clips.has(name) ? name : null));

    // Streamed: the CSV as it is written, then each clip read only when its turn comes. yazl checksums
    // every chunk on the way through, so nothing is held whole.
    const zip = new ZipFile();
    zip.addReadStream(Readable.from(ankiCsv(words, sounds)), ANKI_CSV_NAME);
    zip.addBuffer(Buffer.from(ANKI_README, 'utf8'), ANKI_README_NAME);
    this.addClips(zip, clips);
    zip.end();
    return new StreamableFile(zip.outputStream as PassThrough, {
      type: 'application/zip',
      disposition: `attachment; filename="${ANKI_ZIP_NAME}"`,
    });
  }

  /** Forgets the clips missing from the store, looking up LOOKUPS_AT_ONCE at a time. */
  private async dropMissing(clips: Map<string, string>): Promise<void> {
    const queue = [...clips];
    const lookUp = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const [name, path] = next;
        if (await this.media.exists(path)) continue;
        clips.delete(name);
        this.logger.warn(`The clip ${path} is missing; the Anki export leaves it out`);
      }
    };
    await Promise.all(Array.from({ length: LOOKUPS_AT_ONCE }, lookUp));
  }

  /** The words in the CSV export's order, with the clips the reader's rules let the member hear. */
  private async load(user: User, languages: string[]): Promise<AnkiWord[]> {
    const rows = await this.words
      .query(user)
      .orderBy('b.title', 'ASC')
      .addOrderBy('c.chapterNo', 'ASC')
      .addOrderBy('p.position', 'ASC')
      .addOrderBy('w.id', 'ASC')
      .getRawMany<WordRow>();
    const shown = await this.words.respond(user, rows, languages);
    return shown.map((word, i) => ({
      phraseId: word.phrase_id,
      kind: word.kind,
      term: word.term,
      meaning: word.kind === 'phrase' ? phraseBack(word) : word.meaning,
      source: word.source === 'dictionary' ? (word.source_name ?? 'dictionary') : (word.source ?? ''),
      phrase: word.phrase,
      book: word.book_title,
      chapter: word.chapter_no,
      clip: word.audio ? rows[i].audio_path : null,
    }));
  }

  private addClips(zip: ZipFile, clips: Map<string, string>): void {
    // MP3s leave without their ID3 tags (platform/media/id3.ts): a broken one is reported by the tools reading them.
    const addStored = storedEntries(zip, async (path) => exportedClip(path, await this.media.read(path)));
    // Clips are compressed already, except WAV.
    for (const [name, path] of clips) addStored(name, path, name.endsWith('.wav'));
  }
}
