import {
  applyDecorators,
  BadRequestException,
  Injectable,
  PayloadTooLargeException,
  SetMetadata,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import multer, { MulterError } from 'multer';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { Transform, type Writable } from 'node:stream';
import { promisify } from 'node:util';
import { catchError, from, map, mergeMap, throwError, type Observable } from 'rxjs';
import { MediaService } from '../../platform/media/media.service';
import { ValidationFailed } from '../../platform/common/api-error';
import { BODY_LIMIT, MB, multipartLimit, UPLOAD_FIELDS_LIMIT } from '../../platform/common/body-limits';
import { bodyTooLarge, refuseDeclaredOver } from './read-body';
import { checkBodyShape } from './body-shape';
import { BodyTooLarge, FieldsTooLarge, PartBudget, watchParts } from './multipart-parts';
import { forgetUploaded, markUploaded } from '../../platform/common/uploaded-file.validator';

/** Which file fields a route accepts, and the most bytes each may have. */
export type UploadLimits = Record<string, number>;

/**
 * A route that takes several files in one field (an import's clips) says how many, and the most bytes
 * the whole body may carry; by default each field takes one file and the body the sum of the limits.
 */
export interface UploadOptions {
  counts?: Record<string, number>;
  total?: number;
}

export const UPLOADS = 'lingonovel:uploads';
const UPLOAD_OPTIONS = 'lingonovel:upload-options';
export const Uploads = (limits: UploadLimits, options: UploadOptions = {}) =>
  applyDecorators(SetMetadata(UPLOADS, limits), SetMetadata(UPLOAD_OPTIONS, options));

export { MB };

class FieldTooLarge extends Error {
  constructor(
    readonly field: string,
    readonly limit: number,
  ) {
    super(`${field} is too large`);
  }
}

/**
 * Streams each file to STORAGE_DIR/tmp, cutting it off as soon as it passes its field's limit. A refused
 * upload is reported to the interceptor at once (`onTooLarge`), while multer hears of it only when the
 * request has closed: told earlier, multer would read the rest of the body before giving up.
 */
class LimitedDiskStorage implements multer.StorageEngine {
  private readonly writing = new Set<Transform>();
  private aborted: Error | null = null;

  constructor(
    private readonly media: MediaService,
    private readonly limits: UploadLimits,
    /** Told of any failure (a file too large, a disk error) the moment it happens. */
    private readonly onFailure: (error: Error) => void,
  ) {}

  /** Ends every file still being written, removing its temp file, and refuses any that comes after. */
  abortAll(error: Error): void {
    this.aborted = error;
    for (const counter of this.writing) counter.destroy(error);
  }

  _handleFile(
    req: Request,
    file: Express.Multer.File,
    cb: (error?: unknown, info?: Partial<Express.Multer.File>) => void,
  ) {
    // Multer hears of a failure only once the request has closed (see above).
    const fail = (error: unknown) => (req.destroyed ? cb(error) : req.once('close', () => cb(error)));
    if (this.aborted) return fail(this.aborted);
    const limit = this.limits[file.fieldname];
    const path = this.media.tempPath();
    let size = 0;
    const onFailure = this.onFailure;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, next) {
        size += chunk.length;
        if (size <= limit) return next(null, chunk);
        next(new FieldTooLarge(file.fieldname, limit));
      },
    });
    this.writing.add(counter);
    pipeline(file.stream, counter, createWriteStream(path, { mode: 0o600 }))
      .then(() => cb(null, { path, size }))
      .catch(async (error: unknown) => {
        // Stopped at once, or multer would drain the body into a parser that no longer reads.
        onFailure(error instanceof Error ? error : new Error(String(error)));
        await rm(path, { force: true });
        fail(error);
      })
      .finally(() => this.writing.delete(counter));
  }

  _removeFile(_req: Request, file: Express.Multer.File, cb: (error: Error | null) => void) {
    rm(file.path, { force: true }).then(() => cb(null), cb);
  }
}

function removeUploads(req: Request): Promise<unknown> {
  const files = Object.values((req.files as Record<string, Express.Multer.File[]> | undefined) ?? {}).flat();
  // Multer leaves a placeholder without a path for a file whose upload failed.
  const paths = files.map((file) => file.path).filter((path) => typeof path === 'string');
  paths.forEach(forgetUploaded);
  return Promise.all(paths.map((path) => rm(path, { force: true })));
}

function fieldLabel(field: string): string {
  return field.replace(/_/g, ' ');
}

function tooLarge(field: string, limit: number): PayloadTooLargeException {
  return new PayloadTooLargeException(
    `The ${fieldLabel(field)} file is too large. The limit is ${Math.round(limit / MB)} MB.`,
  );
}

/**
 * Every API call accepts multipart bodies as well as JSON and url-encoded ones (the original clients post
 * forms). Runs after the guards, so nobody can make the server write files before being authorised.
 * Files go to the temp folder; whatever the handler did not move away is deleted when the response ends.
 */
@Injectable()
export class MultipartInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly media: MediaService,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    if (!req.is('multipart/form-data')) return next.handle();

    const limits = this.reflector.get<UploadLimits>(UPLOADS, context.getHandler()) ?? {};
    const options = this.reflector.get<UploadOptions>(UPLOAD_OPTIONS, context.getHandler()) ?? {};
    const counts = Object.fromEntries(Object.keys(limits).map((name) => [name, options.counts?.[name] ?? 1]));
    const fieldBytes = this.fieldBytes(limits);
    const total = options.total ?? multipartLimit(limits);
    refuseDeclaredOver(req, total);

    let abort: (error: unknown) => void = () => undefined;
    const aborted = new Promise<never>((_, reject) => (abort = reject));
    let budget: PartBudget | undefined;
    let parser: Writable | undefined;
    let stopped = false;
    const stop = (error: Error) => {
      if (stopped) return;
      stopped = true;
      abort(error);
      // Stop reading now; the answer then closes the connection (server/http/body/unread-body.ts).
      if (budget) {
        req.unpipe(budget);
        budget.unpipe();
      }
      req.pause();
      storage.abortAll(error);
      parser?.destroy();
    };
    const storage = new LimitedDiskStorage(this.media, limits, stop);
    const upload = multer({
      storage,
      limits: {
        fileSize: Math.max(1, ...Object.values(limits)),
        // Busboy counts every file of the request: the sum of what each field takes.
        files: Math.max(
          10,
          Object.values(counts).reduce((sum, n) => sum + n, 0),
        ),
        fields: 50,
        fieldSize: fieldBytes,
      },
      streamHandler: (request: Request, busboy: Writable) => {
        parser = busboy;
        budget = new PartBudget(total, fieldBytes, Object.keys(limits).length, stop);
        request.pipe(budget).pipe(busboy);
        watchParts(busboy, counts, budget, stop);
      },
    } as multer.Options).fields(Object.keys(limits).map((name) => ({ name, maxCount: counts[name] })));

    // A fallback for a client that hangs up while its body is read. Once the handler has the files, they
    // are its until it settles (a long dictionary import goes on after a proxy's timeout, reading its
    // parts one after another), and the cleanup below removes them then.
    let handed = false;
    res.on('close', () => void (handed || removeUploads(req)));

    // Multer answers an error only once it has read the body to its end: the race answers at once, and
    // the connection is closed behind the answer (server/http/body/unread-body.ts).
    await Promise.race([promisify(upload)(req, res), aborted]).catch((error: unknown) => {
      throw this.translate(error, limits, (field) => counts[field] ?? 1);
    });
    checkBodyShape(req.body);
    // File fields join the body, so that DTOs validate "required" for files and fields alike.
    const files = (req.files as Record<string, Express.Multer.File[]> | undefined) ?? {};
    const body = req.body as Record<string, unknown>;
    // A text field may not pose as a file: only the parts multer stored become file fields.
    for (const field of Object.keys(limits)) delete body[field];
    for (const [field, list] of Object.entries(files)) {
      list.forEach(markUploaded);
      // A field that takes several files is always a list, even of one.
      body[field] = counts[field] > 1 ? list : list[0];
    }
    // Whatever the handler did not move into media/ is deleted before the answer goes out.
    handed = true;
    return next.handle().pipe(
      mergeMap((value: unknown) => from(removeUploads(req)).pipe(map(() => value))),
      catchError((error: unknown) => from(removeUploads(req)).pipe(mergeMap(() => throwError(() => error)))),
    );
  }

  private fieldBytes(limits: UploadLimits): number {
    return Object.keys(limits).length > 0 ? UPLOAD_FIELDS_LIMIT : BODY_LIMIT;
  }

  private translate(error: unknown, limits: UploadLimits, counts: (field: string) => number): unknown {
    if (error instanceof FieldTooLarge) return tooLarge(error.field, error.limit);
    if (error instanceof BodyTooLarge) return bodyTooLarge(error.limit);
    if (error instanceof FieldsTooLarge) {
      return new PayloadTooLargeException(
        `The form's text fields are too large. The limit is ${Math.round(error.limit / 1024)} KB.`,
      );
    }
    if (error instanceof MulterError) {
      if (error.code === 'LIMIT_FILE_COUNT' && !error.field)
        return new PayloadTooLargeException('The form holds more files than this call takes.');
      if (error.code === 'LIMIT_UNEXPECTED_FILE' || error.code === 'LIMIT_FILE_COUNT') {
        const field = error.field ?? 'file';
        return ValidationFailed.field(
          field,
          field in limits
            ? counts(field) > 1
              ? `Send at most ${counts(field)} ${fieldLabel(field)} files.`
              : `Send only one ${fieldLabel(field)} file.`
            : `The ${fieldLabel(field)} field does not accept a file.`,
        );
      }
      if (error.code === 'LIMIT_FILE_SIZE' && error.field) return tooLarge(error.field, limits[error.field]);
      if (error.code === 'LIMIT_FIELD_VALUE' && error.field) {
        return new PayloadTooLargeException(
          `The ${fieldLabel(error.field)} field is too long. The limit is ${Math.round(this.fieldBytes(limits) / 1024)} KB.`,
        );
      }
      return ValidationFailed.field(error.field ?? 'body', 'The form data is not valid.');
    }
    // A system error (a full disk, a permission) is ours, not the client's: a 500 with the details logged.
    if (error instanceof Error && 'syscall' in error) return error;
    // Busboy's own errors: a truncated body, a missing boundary.
    return new BadRequestException('The form data could not be read.');
  }
}
