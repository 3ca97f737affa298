/**
 * The log's lines, written to standard output once per turn of the event loop instead of once per line.
 * Standard output is a file or a pipe, and Node writes to both synchronously: a system call per line,
 * with a line per request, cost a page-cache hit more than its own work (docs/benchmarks-notes.md). Lines
 * written in one turn go out together right after it (setImmediate), in order; past BATCH_BYTES they go
 * at once, so a burst cannot hold much memory. What is held when the process exits (process.exit, an
 * uncaught exception) is written on the way out, and the server's shutdown writes it before Nest raises
 * the stopping signal again (http/boot-log.ts); only a SIGKILL can lose the last turn's lines.
 */
const BATCH_BYTES = 64 * 1024;

export interface LineOutput {
  write(text: string): void;
  /** Writes what is held now: before anything goes to another stream, so the two stay in order. */
  flush(): void;
}

export function batchedOutput(stream: { write(text: string): unknown }): LineOutput {
  let held: string[] = [];
  let bytes = 0;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (held.length === 0) return;
    const text = held.join('');
    held = [];
    bytes = 0;
    stream.write(text);
  };
  process.on('exit', flush);
  return {
    write(text) {
      held.push(text);
      bytes += text.length;
      if (bytes >= BATCH_BYTES) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}

let stdout: LineOutput | undefined;

/** The process's one batched standard output, made on first use. */
export function stdoutLines(): LineOutput {
  stdout ??= batchedOutput(process.stdout);
  return stdout;
}
