import { Transform } from 'class-transformer';
import { IsOptional, ValidateBy, type ValidationArguments } from 'class-validator';
import { canonicalTag } from '../../platform/common/language-tags';
import { storedTextProblem } from '../../platform/common/stored-text';
import { byTag, type Translations } from '../../content/catalogue/repository/phrase-translations.repository';

/** The most languages one phrase may have, and the longest translation (docs/practice.md). */
export const MAX_TRANSLATION_LANGUAGES = 20;
export const MAX_TRANSLATION_LENGTH = 2000;
/** The most problems one 422 names; the rest are counted. */
const MAX_PROBLEMS = 5;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A textarea's text: Windows line endings become \n, outer blank space goes (an empty text removes). */
const cleanText = (value: unknown) =>
  typeof value === 'string' ? value.replace(/\r\n?/g, '\n').trim() : value;

/** What is wrong with a `translations` value, one sentence per problem; empty when nothing is. */
export function translationProblems(value: unknown): string[] {
  if (!isPlainObject(value))
    return ['The translations must be a text per language tag, such as translations[en].'];
  const problems: string[] = [];
  const seen = new Map<string, string>();
  const entries = Object.entries(value);
  for (const [key, text] of entries) {
    const tag = canonicalTag(key);
    const shown = JSON.stringify(key.slice(0, 40));
    if (tag === null) problems.push(`${shown} is not a language tag (BCP 47, such as en or pt-BR).`);
    else if (seen.has(tag)) problems.push(`${shown} and "${seen.get(tag)}" are the same language.`);
    else seen.set(tag, key);
    if (typeof text !== 'string') problems.push(`The ${shown} translation must be text.`);
    else if (text.length > MAX_TRANSLATION_LENGTH)
      problems.push(`The ${shown} translation must not be longer than ${MAX_TRANSLATION_LENGTH} characters.`);
    else if (storedTextProblem(text)) problems.push(`The ${shown} translation ${storedTextProblem(text)}`);
  }
  const kept = entries.filter(([, text]) => text !== '').length;
  if (kept > MAX_TRANSLATION_LANGUAGES)
    problems.push(`A phrase may have at most ${MAX_TRANSLATION_LANGUAGES} translations.`);
  // A 422 stays small whatever was sent: the first few problems, then how many more.
  return problems.length > MAX_PROBLEMS
    ? [...problems.slice(0, MAX_PROBLEMS), `… and ${problems.length - MAX_PROBLEMS} more.`]
    : problems;
}

/** The problems found by `validate`, for `defaultMessage` to name without checking again. */
const found = new WeakMap<object, string[]>();

function checked(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return translationProblems(value);
  const known = found.get(value);
  if (known) return known;
  const problems = translationProblems(value);
  found.set(value, problems);
  return problems;
}

/**
 * A phrase's `translations`: as form fields `translations[en]`, `translations[pt-BR]` (multipart, which
 * nests them), or a JSON object. Optional: left out, the phrase keeps its translations; sent, it is the
 * phrase's whole set, an empty text removing that language. Every problem is named in one 422.
 */
export const TranslationsField = (): PropertyDecorator[] => [
  IsOptional(),
  Transform(({ value }: { value: unknown }) =>
    isPlainObject(value)
      ? Object.fromEntries(Object.entries(value).map(([key, text]) => [key, cleanText(text)]))
      : value,
  ),
  ValidateBy({
    name: 'isTranslations',
    validator: {
      validate: (value: unknown) => checked(value).length === 0,
      defaultMessage: (args?: ValidationArguments) => checked(args?.value).join(' '),
    },
  }),
];

/**
 * The set to store: canonical tags, empty texts left out, sorted by tag as every answer shows a set (a
 * create answers this one). Only for a value translationProblems passed.
 */
export function toTranslations(value: Record<string, string>): Translations {
  const entries = Object.entries(value)
    .filter(([, text]) => text !== '')
    .map(([key, text]): [string, string] => [canonicalTag(key)!, text]);
  return Object.fromEntries(entries.sort(([a], [b]) => byTag(a, b)));
}
