import appendField from 'append-field';
import { MulterError } from 'multer';
import { Transform, type Readable, type Writable } from 'node:stream';

/** Room for the boundaries and headers of the parts, counted with the text fields. */
const PART_HEADERS = 64 * 1024;
/**
 * A chunk is counted before the parser reads it, so the start of each file (a chunk at most) can count as
 * text: each file field the route takes adds that much room.
 */
const CHUNK = 64 * 1024;

export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super('The request body is too large.');
  }
}

export class FieldsTooLarge extends Error {
  constructor(readonly limit: number) {
    super("The form's text fields are too large.");
  }
}

/**
 * Sits between the request and the multipart parser, counting every byte and, apart, those that arrive
 * while no file is open (text fields and part headers). Busboy only says a field was too long once the
 * field ends, which an endless field never does; counting here stops it at its limit. The count is a few
 * KB behind the parser at most, the buffer between the two.
 */
export class PartBudget extends Transform {
  openFiles = 0;
  private total = 0;
  private text = 0;

  private readonly textRoom: number;

  constructor(
    private readonly totalLimit: number,
    private readonly textLimit: number,
    fileFields: number,
    private readonly over: (error: Error) => void,
  ) {
    super();
    this.textRoom = textLimit + PART_HEADERS + fileFields * CHUNK;
  }

  override _transform(
    chunk: Buffer,
    _encoding: BufferEncoding,
    next: (error?: Error | null, data?: Buffer) => void,
  ) {
    this.total += chunk.length;
    if (this.openFiles === 0) this.text += chunk.length;
    if (this.total > this.totalLimit) this.over(new BodyTooLarge(this.totalLimit));
    else if (this.text > this.textRoom) this.over(new FieldsTooLarge(this.textLimit));
    else return next(null, chunk);
    next();
  }
}

/**
 * Multer learns of a refused part (a file where none belongs, a field too long, too many parts, a broken
 * body) as it happens, but answers only after reading the whole body. Watching the parser ourselves lets
 * every refusal answer at once.
 */
export function watchParts(
  parser: Writable,
  /** How many files each file field takes. */
  counts: Record<string, number>,
  budget: PartBudget,
  stop: (error: Error) => void,
): void {
  const files: Record<string, number> = {};
  parser.on('file', (name: string, stream: Readable) => {
    files[name] = (files[name] ?? 0) + 1;
    if (!(name in counts) || files[name] > counts[name])
      return stop(new MulterError('LIMIT_UNEXPECTED_FILE', name));
    budget.openFiles++;
    stream.once('close', () => budget.openFiles--);
  });
  // The same refusals multer's own field handler makes, in its order; a scratch copy of the fields finds
  // the names it cannot place (e.g. `y[4294967294]` then `y[]`).
  // Without a prototype, like multer's own body: a field named `__proto__[x]` must not reach Object.prototype.
  const scratch = Object.create(null) as Record<string, unknown>;
  parser.on(
    'field',
    (name: string | null, value: string, info: { nameTruncated: boolean; valueTruncated: boolean }) => {
      if (name == null) return stop(new MulterError('MISSING_FIELD_NAME'));
      if (info.nameTruncated) return stop(new MulterError('LIMIT_FIELD_KEY'));
      if (info.valueTruncated) return stop(new MulterError('LIMIT_FIELD_VALUE', name));
      try {
        appendField(scratch, name, value);
      } catch {
        stop(new MulterError('INVALID_FIELD_NAME' as MulterError['code'], name));
      }
    },
  );
  parser.on('fieldsLimit', () => stop(new MulterError('LIMIT_FIELD_COUNT')));
  parser.on('filesLimit', () => stop(new MulterError('LIMIT_FILE_COUNT')));
  parser.on('partsLimit', () => stop(new MulterError('LIMIT_PART_COUNT')));
  parser.on('error', (error: Error) => stop(error));
}
