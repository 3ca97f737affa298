import { Injectable, type PipeTransform } from '@nestjs/common';
import { ValidationFailed } from '../../platform/common/api-error';
import { parseTagList } from '../../platform/common/language-tags';

/** The most languages a chapter answer may ask for (docs/practice.md). */
export const MAX_ASKED_LANGUAGES = 10;
/** Longer than 10 tags of 35 characters and their commas can be: refused before it is split. */
const MAX_PARAM = 400;

export type AskedLanguages = { ok: true; tags: string[] } | { ok: false; message: string };

/**
 * The chapter API's `?translations=en,de`: canonical tags, duplicates removed, in the order asked. One
 * parser for the route's check (below) and the page cache's key (http/query-rules.ts), so that what the
 * cache refuses to key is exactly what the route answers with a 422.
 */
export function parseAskedLanguages(value: unknown): AskedLanguages {
  if (value === undefined) return { ok: true, tags: [] };
  if (typeof value !== 'string' || value.length > MAX_PARAM)
    return {
      ok: false,
      message: 'The translations must be one comma-separated list of language tags, such as en,pt-BR.',
    };
  const entries = value.split(',').filter((entry) => entry.trim() !== '');
  if (entries.length > MAX_ASKED_LANGUAGES)
    return { ok: false, message: `Ask for at most ${MAX_ASKED_LANGUAGES} translation languages.` };
  const parsed = parseTagList(value);
  if (!parsed.ok)
    return {
      ok: false,
      message: `${parsed.invalid.map((tag) => `"${tag}"`).join(', ')} ${parsed.invalid.length > 1 ? 'are not language tags' : 'is not a language tag'} (BCP 47, such as en or pt-BR).`,
    };
  return { ok: true, tags: parsed.tags };
}

/** `@Query('translations', AskedLanguagesPipe)`: the asked languages, or a 422 naming `translations`. */
@Injectable()
export class AskedLanguagesPipe implements PipeTransform<unknown, string[]> {
  transform(value: unknown): string[] {
    const asked = parseAskedLanguages(value);
    if (!asked.ok) throw ValidationFailed.field('translations', asked.message);
    return asked.tags;
  }
}
