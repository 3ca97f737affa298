import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
// class-transformer's registry of @Type() targets: the only place that says what a nested list holds.
import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';
import { getMetadataStorage } from 'class-validator';
import { StoredText } from './stored-text';

/** File fields say so (IsUploadedFile), so the API description shows them as uploads. */
export const UPLOAD_FIELD = Symbol('lingonovel:upload-field');

/** What TypeScript's metadata cannot say: files, and what a list holds (nested objects or ids). */
function shape(target: object, key: string, upload: boolean): ApiPropertyOptions {
  const list = Reflect.getMetadata('design:type', target, key) === Array;
  const binary = { type: 'string', format: 'binary' } as const;
  if (upload) return list ? { type: 'array', items: binary } : binary;
  if (!list) return {};
  const nested = defaultMetadataStorage.findTypeMetadata(target.constructor, key)?.typeFunction();
  return nested ? { type: [nested as new () => object] } : { type: 'array', items: { type: 'integer' } };
}

/**
 * Applies a field's rules in the order they are written. Stacked decorators run bottom-up, and with
 * stopAtFirstError the first rule registered is the one reported, so "required" must come first.
 *
 * It also describes the field in the OpenAPI document (the build uses plain tsc, not the Swagger CLI
 * plugin, so nothing else would): its type comes from TypeScript's emitted metadata, whether it is
 * required from the rules themselves (an IsOptional or ValidateIf rule makes it optional), and an
 * uploaded file is a binary string.
 *
 * Every field refuses text holding a control character (stored-text.ts), after its own rules, unless it
 * is marked AnyText() (in any order: the rule looks when it validates): refused by default, so a new text
 * field cannot forget it.
 */
export const Field =
  (...rules: PropertyDecorator[]): PropertyDecorator =>
  (target, key) => {
    for (const rule of rules) rule(target, key);
    StoredText()(target, key);
    const conditional = getMetadataStorage()
      .getTargetValidationMetadatas(target.constructor, '', true, false)
      .some((rule) => rule.propertyName === key && rule.type === 'conditionalValidation');
    const upload = Reflect.getMetadata(UPLOAD_FIELD, target, key) === true;
    ApiProperty({ ...shape(target, key as string, upload), required: !conditional } as ApiPropertyOptions)(
      target,
      key,
    );
  };
