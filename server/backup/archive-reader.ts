import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { MIGRATIONS } from '../platform/database/schema';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  BackupError,
  Checksum,
  isSafeEntryName,
  MANIFEST_NAME,
  messageOf,
  type ArchivedFile,
  type Manifest,
} from './archive-format';

const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;

const damaged = (file: string, error: unknown) =>
  new BackupError(
    `${file} is damaged or is not a Lingonovel backup (${messageOf(error)}). Nothing was restored.`,
  );

/** An opened archive: its entries by name and its checked manifest. */
export class BackupArchive {
  private constructor(
    private readonly path: string,
    private readonly zip: ZipFile,
    private readonly entries: Map<string, Entry>,
    readonly manifest: Manifest,
  ) {}

  static async open(path: string): Promise<BackupArchive> {
    const zip = await new Promise<ZipFile>((resolve, reject) =>
      yauzl.open(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true }, (error, opened) =>
        error ? reject(error) : resolve(opened),
      ),
    ).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        throw new BackupError(`${path} does not exist.`);
      throw damaged(path, error);
    });
    try {
      const entries = await listEntries(zip).catch((error: unknown) => {
        throw error instanceof BackupError ? error : damaged(path, error);
      });
      const manifestEntry = entries.get(MANIFEST_NAME);
      if (!manifestEntry)
        throw new BackupError(`${path} has no ${MANIFEST_NAME}: it is not a Lingonovel backup.`);
      if (manifestEntry.uncompressedSize > MAX_MANIFEST_BYTES) throw damaged(path, 'manifest too large');
      const text = await readAll(zip, manifestEntry).catch((error: unknown) => {
        throw damaged(path, error);
      });
      const archive = new BackupArchive(path, zip, entries, parseManifest(path, text));
      archive.checkEntries();
      return archive;
    } catch (error) {
      zip.close();
      throw error;
    }
  }

  /** Every file the manifest lists is in the archive, and nothing else is. */
  private checkEntries(): void {
    const listed = new Set(this.manifest.files.map((file) => file.name));
    for (const file of this.manifest.files)
      if (!this.entries.has(file.name)) throw damaged(this.path, `${file.name} is missing`);
    for (const name of this.entries.keys())
      if (name !== MANIFEST_NAME && !listed.has(name))
        throw damaged(this.path, `${name} is not in the manifest`);
  }

  /**
   * Writes one file of the archive to `dest`, checking its size and SHA-256 against the manifest on the
   * way; a mismatch is a damaged archive.
   */
  async extract(file: ArchivedFile, dest: string): Promise<void> {
    await mkdir(dirname(dest), { recursive: true });
    const checksum = new Checksum();
    try {
      await pipeline(
        await openEntry(this.zip, this.entries.get(file.name)!),
        checksum,
        createWriteStream(dest, { mode: 0o600 }),
      );
    } catch (error) {
      throw damaged(this.path, `${file.name}: ${messageOf(error)}`);
    }
    if (checksum.size !== file.size || checksum.digest() !== file.sha256)
      throw new BackupError(
        `${this.path} is damaged: ${file.name} does not match its checksum in the manifest. Nothing was restored.`,
      );
  }

  close(): void {
    this.zip.close();
  }
}

function listEntries(zip: ZipFile): Promise<Map<string, Entry>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, Entry>();
    zip.on('entry', (entry: Entry) => {
      if (!isSafeEntryName(entry.fileName) || entries.has(entry.fileName)) {
        reject(
          new BackupError(
            `The archive holds an entry with an unsafe or repeated name: ${JSON.stringify(entry.fileName)}. Nothing was restored.`,
          ),
        );
        return;
      }
      entries.set(entry.fileName, entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', reject);
    zip.readEntry();
  });
}

function openEntry(zip: ZipFile, entry: Entry): Promise<NodeJS.ReadableStream> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream))),
  );
}

async function readAll(zip: ZipFile, entry: Entry): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await openEntry(zip, entry)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseManifest(path: string, text: string): Manifest {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(text) as Manifest;
  } catch (error) {
    throw damaged(path, `manifest.json: ${messageOf(error)}`);
  }
  if (manifest?.format !== ARCHIVE_FORMAT || !Array.isArray(manifest.files))
    throw new BackupError(`${path} is not a Lingonovel backup (its manifest is not ours).`);
  if (manifest.version > ARCHIVE_VERSION)
    throw new BackupError(
      `${path} is a backup of format ${manifest.version}; this version reads format ${ARCHIVE_VERSION}. Upgrade Lingonovel first.`,
    );
  const known = MIGRATIONS.map((migration) => new migration().name);
  if (!known.includes(manifest.schema?.migration))
    throw new BackupError(
      `${path} holds a database of a newer schema (${String(manifest.schema?.migration)}) than this ` +
        `version of Lingonovel knows (its last is ${known[known.length - 1]}). Restore it with the version ` +
        'that made it, or a newer one.',
    );
  for (const file of manifest.files)
    if (
      !isSafeEntryName(file?.name) ||
      !/^[0-9a-f]{64}$/.test(file.sha256) ||
      !Number.isSafeInteger(file.size)
    )
      throw damaged(path, `manifest entry ${JSON.stringify(file?.name)}`);
  return manifest;
}
