import {
  Injectable,
  ValidationPipe,
  type ArgumentMetadata,
  type PipeTransform,
  type ValidationError,
} from '@nestjs/common';
import { RuleFailed, ValidationFailed, type FieldErrors } from '../platform/common/api-error';

function collect(errors: ValidationError[], into: FieldErrors = {}, prefix = ''): FieldErrors {
  for (const error of errors) {
    const field = prefix + error.property;
    const messages = Object.values(error.constraints ?? {});
    if (messages.length > 0) (into[field] ??= []).push(...messages);
    if (error.children?.length) collect(error.children, into, `${field}.`);
  }
  return into;
}

/** The whitelist's own message, so that these keys are refused exactly as any other unknown one. */
export const unknownField = (key: string) => `property ${key} should not exist`;

const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * Keys named like Object.prototype's members (`__proto__`, `constructor`, `toString`…), anywhere in the
 * value. JSON.parse keeps them as own keys, but class-transformer skips any key its new instance already
 * answers with a method or accessor, so the whitelist never sees them and they would be dropped silently.
 */
function inheritedKeys(value: unknown): FieldErrors {
  // A Map, then fromEntries: assigning errors['__proto__'] would set a prototype, not a field.
  const errors = new Map<string, string[]>();
  const stack: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    for (const [key, child] of Object.entries(current)) {
      const field = path ? `${path}.${key}` : key;
      if (INHERITED.has(key)) errors.set(field, [unknownField(key)]);
      else stack.push({ value: child, path: field });
    }
  }
  return Object.fromEntries(errors);
}

class StrictValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (this.toValidate(metadata)) {
      const errors = inheritedKeys(value);
      if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
    }
    return super.transform(value, metadata);
  }
}

/**
 * Validation at the edge: unknown fields are refused, and failures become the 422 of docs/product.md section 8 with messages per
 * field. Form posts send every value as a string, so DTOs convert explicitly with class-transformer.
 */
export function createValidationPipe(): ValidationPipe {
  return new StrictValidationPipe({
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
