import yauzl from 'yauzl';
import { ZipFile } from 'yazl';

export interface ZipItem {
  name: string;
  data: Buffer;
  /** Stored as is rather than deflated. */
  store?: boolean;
}

/** A real zip archive, made with yazl, in memory (test zips are small, or compress to almost nothing). */
export function makeZip(items: ZipItem[]): Promise<Buffer> {
  const zip = new ZipFile();
  for (const item of items) zip.addBuffer(item.data, item.name, { compress: !item.store });
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/**
 * Renames an entry inside a finished zip, in its local and central headers alike: how a hostile archive
 * gets names (`../x`, `/x`) that zip writers refuse to write. Both names must have the same length.
 */
export function renameEntry(zip: Buffer, from: string, to: string): Buffer {
  if (from.length !== to.length) throw new Error('renameEntry: the names must have the same length');
  const out = Buffer.from(zip);
  const needle = Buffer.from(from);
  let at = out.indexOf(needle);
  while (at !== -1) {
    out.write(to, at, 'latin1');
    at = out.indexOf(needle, at + needle.length);
  }
  return out;
}

/** Makes the central directory understate an entry's size: its real bytes then pass what it declares. */
export function understateSize(zip: Buffer, declared: number): Buffer {
  const out = Buffer.from(zip);
  const central = out.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
  out.writeUInt32LE(declared, central + 24);
  return out;
}

/** Every entry of a zip, read back with the same library the import uses. */
export function unzip(zip: Buffer): Promise<ZipItem[]> {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, file) => {
      if (error || !file) return reject(error ?? new Error('yauzl opened no zip'));
      const items: ZipItem[] = [];
      file.on('entry', (entry: yauzl.Entry) =>
        file.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err ?? new Error('yauzl opened no entry stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            items.push({ name: entry.fileName, data: Buffer.concat(chunks) });
            file.readEntry();
          });
        }),
      );
      file.on('end', () => resolve(items));
      file.on('error', reject);
      file.readEntry();
    }),
  );
}
