import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsOptional, ValidateBy } from 'class-validator';
import { canonicalTag } from '../../platform/common/language-tags';
import type { User } from './user.entity';

/** The most languages a member may say they read (docs/practice.md, "Translations"). */
export const MAX_SPEAKS = 5;

/** The member's languages, best first (users.speaks holds them comma-separated); [] when none chosen. */
export const speaksOf = (user: Pick<User, 'speaks'>): string[] =>
  (user.speaks ?? '').split(',').filter((tag) => tag !== '');

/** What users.speaks stores for a list the DTO passed: canonical tags, first place kept; null for none. */
export function toSpeaks(tags: string[]): string | null {
  const canonical = [...new Set(tags.map((tag) => canonicalTag(tag.trim())!))];
  return canonical.length ? canonical.join(',') : null;
}

/**
 * The profile's `speaks`: a JSON list of BCP 47 tags, best first, or (from a form) one comma-separated
 * text. Null or [] clears it.
 */
export const SpeaksField = (): PropertyDecorator[] => [
  IsOptional(),
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((tag) => tag.trim())
          .filter((tag) => tag !== '')
      : value,
  ),
  IsArray({ message: 'The languages you speak must be a list of language tags, such as ["en", "pt-BR"].' }),
  ArrayMaxSize(MAX_SPEAKS, { message: `Choose at most ${MAX_SPEAKS} languages.` }),
  ValidateBy(
    {
      name: 'isLanguageTag',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && canonicalTag(value.trim()) !== null,
        // With `each`, the message is given the whole list: it names the first entry that fails.
        defaultMessage: (args) => {
          const list: unknown[] = Array.isArray(args?.value) ? (args.value as unknown[]) : [args?.value];
          const bad = list.find((tag) => typeof tag !== 'string' || canonicalTag(tag.trim()) === null);
          return `${JSON.stringify(String(bad).slice(0, 40))} is not a language tag (BCP 47, such as en or pt-BR).`;
        },
      },
    },
    { each: true },
  ),
];
