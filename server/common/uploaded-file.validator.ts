import { registerDecorator, type ValidationOptions } from 'class-validator';

/** What the multipart interceptor puts in the body for a file field. */
export interface UploadedFile {
  path: string;
  size: number;
  originalname: string;
}

export function isUploadedFile(value: unknown): value is UploadedFile {
  return typeof value === 'object' && value !== null && typeof (value as UploadedFile).path === 'string';
}

/** The field must be a file sent in a multipart body (not a string naming one). */
export function IsUploadedFile(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isUploadedFile',
      target: target.constructor,
      propertyName: String(propertyName),
      options,
      validator: { validate: isUploadedFile },
    });
}
