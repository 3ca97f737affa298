import {
  Injectable,
  ValidationPipe,
  type ArgumentMetadata,
  type PipeTransform,
  type ValidationError,
} from '@nestjs/common';
import { RuleFailed, ValidationFailed, type FieldErrors } from './api-error';

function collect(errors: ValidationError[], into: FieldErrors = {}, prefix = ''): FieldErrors {
  for (const error of errors) {
    const field = prefix + error.property;
    const messages = Object.values(error.constraints ?? {});
    if (messages.length > 0) (into[field] ??= []).push(...messages);
    if (error.children?.length) collect(error.children, into, `${field}.`);
  }
  return into;
}

/**
 * Validation at the edge: unknown fields are refused, and failures become the 422 of docs/product.md section 8 with messages per
 * field. Form posts send every value as a string, so DTOs convert explicitly with class-transformer.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: true,
    exceptionFactory: (errors) => new ValidationFailed(collect(errors)),
  });
}

/**
 * A JSON body must be an object: an array would otherwise be validated element by element and answered
 * with errors named "0", "1"….
 */
@Injectable()
export class ObjectBodyPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type === 'body' && Array.isArray(value)) {
      throw new RuleFailed('The request body must be a JSON object or a form, not a list.');
    }
    return value;
  }
}
