import { open } from 'node:fs/promises';

/**
 * The language of an M4B's tracks (docs/formats.md "Audiobook M4B"). ffmpeg's iPod muxer takes the audio
 * track's language from `-metadata:s:a:0 language=…` but writes the chapter track's as 0, which players
 * read as English, whatever the book. So after the muxer, every track's `mdhd` language is set in place
 * to the book's: the file's size and offsets stay as they are.
 */

/**
 * ISO 639-1 two-letter codes → ISO 639-2/B three-letter ones (the bibliographic codes ffmpeg and most
 * players use: `ger`, `fre`, `dut`), the standard's whole table.
 */
const ISO_639_2B = new Map(
  (
    'aa aar ab abk ae ave af afr ak aka am amh an arg ar ara as asm av ava ay aym az aze ba bak be bel ' +
    'bg bul bh bih bi bis bm bam bn ben bo tib br bre bs bos ca cat ce che ch cha co cos cr cre cs cze ' +
    'cu chu cv chv cy wel da dan de ger dv div dz dzo ee ewe el gre en eng eo epo es spa et est eu baq ' +
    'fa per ff ful fi fin fj fij fo fao fr fre fy fry ga gle gd gla gl glg gn grn gu guj gv glv ha hau ' +
    'he heb hi hin ho hmo hr hrv ht hat hu hun hy arm hz her ia ina id ind ie ile ig ibo ii iii ik ipk ' +
    'io ido is ice it ita iu iku ja jpn jv jav ka geo kg kon ki kik kj kua kk kaz kl kal km khm kn kan ' +
    'ko kor kr kau ks kas ku kur kv kom kw cor ky kir la lat lb ltz lg lug li lim ln lin lo lao lt lit ' +
    'lu lub lv lav mg mlg mh mah mi mao mk mac ml mal mn mon mr mar ms may mt mlt my bur na nau nb nob ' +
    'nd nde ne nep ng ndo nl dut nn nno no nor nr nbl nv nav ny nya oc oci oj oji om orm or ori os oss ' +
    'pa pan pi pli pl pol ps pus pt por qu que rm roh rn run ro rum ru rus rw kin sa san sc srd sd snd ' +
    'se sme sg sag si sin sk slo sl slv sm smo sn sna so som sq alb sr srp ss ssw st sot su sun sv swe ' +
    'sw swa ta tam te tel tg tgk th tha ti tir tk tuk tl tgl tn tsn to ton tr tur ts tso tt tat tw twi ' +
    'ty tah ug uig uk ukr ur urd uz uzb ve ven vi vie vo vol wa wln wo wol xh xho yi yid yo yor za zha ' +
    'zh chi zu zul'
  )
    .split(' ')
    .reduce<Array<[string, string]>>(
      (pairs, code, i, all) => (i % 2 ? pairs : [...pairs, [code, all[i + 1]]]),
      [],
    ),
);

/** The terminology (/T) codes whose bibliographic (/B) code differs: a book tagged `deu` is `ger` too. */
const T_TO_B = new Map(
  Object.entries({
    bod: 'tib',
    ces: 'cze',
    cym: 'wel',
    deu: 'ger',
    ell: 'gre',
    eus: 'baq',
    fas: 'per',
    fra: 'fre',
    hye: 'arm',
    isl: 'ice',
    kat: 'geo',
    mri: 'mao',
    mkd: 'mac',
    msa: 'may',
    mya: 'bur',
    nld: 'dut',
    ron: 'rum',
    slk: 'slo',
    sqi: 'alb',
    zho: 'chi',
  }),
);

/**
 * A BCP 47 tag's language as an ISO 639-2/B code: `de-AT` → `ger`, `pt-BR` → `por`; a three-letter
 * language (ISO 639-2 or 639-3, `yue`) as it is, its /T spelling made /B; `und` (undetermined) when the
 * book has no language or one these codes cannot say.
 */
export function iso639_2B(tag: string | null): string {
  const language = (tag ?? '').split('-')[0].toLowerCase();
  if (language.length === 2) return ISO_639_2B.get(language) ?? 'und';
  if (/^[a-z]{3}$/.test(language)) return T_TO_B.get(language) ?? language;
  return 'und';
}

/** An MP4 box header: its type, where its body starts and where it ends. */
interface Box {
  type: string;
  start: number;
  body: number;
  end: number;
}

/** The boxes in `data` from `from` to `to`. */
function* boxes(data: Buffer, from: number, to: number): Generator<Box> {
  for (let at = from; at + 8 <= to;) {
    let size = data.readUInt32BE(at);
    let body = at + 8;
    if (size === 1) {
      size = Number(data.readBigUInt64BE(at + 8));
      body += 8;
    } else if (size === 0) size = to - at;
    if (size < body - at || at + size > to) return;
    yield { type: data.toString('latin1', at + 4, at + 8), start: at, body, end: at + size };
    at += size;
  }
}

/** The top-level `moov` box of the file: its offset in the file and its bytes. */
async function readMoov(
  file: Awaited<ReturnType<typeof open>>,
): Promise<{ offset: number; data: Buffer } | null> {
  const { size } = await file.stat();
  const header = Buffer.alloc(16);
  for (let at = 0; at + 8 <= size;) {
    await file.read(header, 0, 16, at);
    let length = header.readUInt32BE(0);
    if (length === 1) length = Number(header.readBigUInt64BE(8));
    else if (length === 0) length = size - at;
    if (length < 8) return null;
    if (header.toString('latin1', 4, 8) === 'moov') {
      const data = Buffer.alloc(length);
      await file.read(data, 0, length, at);
      return { offset: at, data };
    }
    at += length;
  }
  return null;
}

/** ISO 639-2 code → the mdhd's packed form: a pad bit, then each letter minus 0x60 in 5 bits. */
const packed = (code: string) =>
  [...code].reduce((value, letter) => (value << 5) | (letter.charCodeAt(0) - 0x60), 0);

/**
 * Sets the language of every track (`moov/trak/mdia/mdhd`) of the MP4 at `path` to `code` (three
 * lower-case letters), in place; answers how many tracks it set. A file without `moov` is an error.
 */
export async function setTrackLanguages(path: string, code: string): Promise<number> {
  if (!/^[a-z]{3}$/.test(code)) throw new Error(`Not an ISO 639-2 code: ${code}`);
  const file = await open(path, 'r+');
  try {
    const moov = await readMoov(file);
    if (!moov) throw new Error('The MP4 has no moov box');
    const { data } = moov;
    const value = Buffer.alloc(2);
    value.writeUInt16BE(packed(code));
    let set = 0;
    const root = [...boxes(data, 0, data.length)][0];
    for (const trak of boxes(data, root.body, root.end)) {
      if (trak.type !== 'trak') continue;
      for (const mdia of boxes(data, trak.body, trak.end)) {
        if (mdia.type !== 'mdia') continue;
        for (const mdhd of boxes(data, mdia.body, mdia.end)) {
          if (mdhd.type !== 'mdhd') continue;
          // version 0: 4-byte times and duration; version 1: 8-byte ones; then the language.
          const at = mdhd.body + (data[mdhd.body] === 1 ? 4 + 8 + 8 + 4 + 8 : 4 + 4 + 4 + 4 + 4);
          if (at + 2 > mdhd.end) continue;
          await file.write(value, 0, 2, moov.offset + at);
          set++;
        }
      }
    }
    return set;
  } finally {
    await file.close();
  }
}
