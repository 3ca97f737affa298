import { ZipFile } from 'yazl';

/** A zip holding these files, in memory, as an administrator would upload one. */
export function zip(files: Record<string, Buffer>): Promise<Buffer> {
  const archive = new ZipFile();
  for (const [name, data] of Object.entries(files)) archive.addBuffer(data, name);
  archive.end();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    archive.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    archive.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}
