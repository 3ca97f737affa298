import type { PassThrough, Readable } from 'node:stream';
import type { ZipFile } from 'yazl';

/**
 * Lets a streamed zip take stored files, each opened only when its turn comes (from a folder or a
 * bucket). A read that fails (a file deleted since the check, a store gone) destroys the output, and the
 * connection is dropped, so a cut-off zip never looks complete.
 */
export function storedEntries(zip: ZipFile, read: (path: string) => Promise<Readable>) {
  const output = zip.outputStream as PassThrough;
  let reading: Readable | undefined;
  zip.on('error', (error: Error) => output.destroy(error));
  // A client that hangs up stops the zip midway: the file being read would stay open.
  output.on('close', () => reading?.destroy());
  return (name: string, path: string, compress: boolean) =>
    zip.addReadStreamLazy(name, { compress }, (open) => {
      read(path).then(
        (stream) => {
          reading = stream;
          stream.on('error', (error) => output.destroy(error));
          open(null, stream);
        },
        (error: Error) => output.destroy(error),
      );
    });
}
