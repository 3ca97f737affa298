import { UPLOAD_FIELD } from './field';
import { registerDecorator, type ValidationOptions } from 'class-validator';

/** What the multipart interceptor puts in the body for a file field. */
export interface UploadedFile {
  path: string;
  size: number;
  originalname: string;
}

/**
 * Only files the multipart interceptor stored count as uploads. A client can send
 * `{ "book_image": { "path": "/etc/…" } }` as JSON or form fields; without this check, that path would be
 * taken for an upload and moved or deleted. The paths are random names in the temp folder, known only
 * for the life of their request (validation copies the body's objects, so their identity cannot be used).
 */
const storedPaths = new Set<string>();

export function markUploaded(file: UploadedFile): void {
  storedPaths.add(file.path);
}

export function forgetUploaded(path: string): void {
  storedPaths.delete(path);
}

export function isUploadedFile(value: unknown): value is UploadedFile {
  const path = (value as UploadedFile | null)?.path;
  return typeof value === 'object' && typeof path === 'string' && storedPaths.has(path);
}

/** The field must be a file sent in a multipart body (not a string or an object naming one). */
export function IsUploadedFile(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    Reflect.defineMetadata(UPLOAD_FIELD, true, target, propertyName);
    registerDecorator({
      name: 'isUploadedFile',
      target: target.constructor,
      propertyName: String(propertyName),
      options,
      validator: { validate: isUploadedFile },
    });
  };
}
