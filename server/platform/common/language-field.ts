import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';
import { Trim } from './form-values';
import { canonicalTag } from './language-tags';

/**
 * A field holding a BCP 47 tag, canonicalised ("es-mx" becomes "es-MX"); anything else stays as sent, for
 * the rule to refuse with a message naming the field (`label`).
 */
export const LanguageTag = (label: string): PropertyDecorator[] => [
  Trim(),
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? (canonicalTag(value) ?? value) : value,
  ),
  ValidateBy(
    {
      name: 'isLanguageTag',
      validator: { validate: (value: unknown) => typeof value === 'string' && canonicalTag(value) === value },
    },
    { message: `The ${label} must be a language tag (BCP 47, such as es or pt-BR).` },
  ),
];
