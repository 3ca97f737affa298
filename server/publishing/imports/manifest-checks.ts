import { canonicalTag } from '../../platform/common/language-tags';

/*
 * The checks a manifest read back from JSON goes through (manifests.ts): each takes a value and where it
 * is in the manifest, and returns it typed, or throws a DamagedImport naming that place.
 */

/** The API's answer to a DamagedImport (a 409): the administrator can only stage the files again. */
export const DAMAGED_IMPORT_MESSAGE = "This import's data is damaged: stage it again.";

/** A manifest that is not what staging writes; the message says where, for the log, not the client. */
export class DamagedImport extends Error {
  constructor(detail: string) {
    super(`The import's manifest is damaged: ${detail}`);
    this.name = 'DamagedImport';
  }
}

/** The names staging gives its files (`3.part`, `12.clip`, `recording.mp3`): never a path. */
const STAGED_NAME = /^[0-9A-Za-z][0-9A-Za-z._-]{0,99}$/;

export type Check<T> = (value: unknown, at: string) => T;

export function refuse(at: string, what: string): never {
  throw new DamagedImport(`${at} ${what}`);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const object: Check<Record<string, unknown>> = (value, at) =>
  isRecord(value) ? value : refuse(at, 'is not an object');

export const text: Check<string> = (value, at) =>
  typeof value === 'string' ? value : refuse(at, 'is not text');

export const count: Check<number> = (value, at) =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
    ? value
    : refuse(at, 'is not a whole number of 0 or more');

export const ordinal: Check<number> = (value, at) => {
  const n = count(value, at);
  return n >= 1 ? n : refuse(at, 'is not a whole number of 1 or more');
};

export const milliseconds: Check<number> = (value, at) =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0
    ? value
    : refuse(at, 'is not a duration in ms');

export const share: Check<number> = (value, at) =>
  typeof value === 'number' && value >= 0 && value <= 1 ? value : refuse(at, 'is not a number from 0 to 1');

export const voiceName: Check<string> = (value, at) =>
  typeof value === 'string' && /^[a-z0-9-]{1,20}$/.test(value) ? value : refuse(at, 'is not a voice name');

export const stagedName: Check<string> = (value, at) =>
  typeof value === 'string' && STAGED_NAME.test(value) ? value : refuse(at, 'is not a staged file name');

export const oneOf =
  <T extends string>(options: readonly T[], what: string): Check<T> =>
  (value, at) =>
    options.find((option) => option === value) ?? refuse(at, `is not ${what}`);

export const nullable =
  <T>(check: Check<T>): Check<T | null> =>
  (value, at) =>
    value === null ? null : check(value, at);

/** A field that JSON.stringify leaves out when it is undefined. */
export const optional =
  <T>(check: Check<T>): Check<T | undefined> =>
  (value, at) =>
    value === undefined ? undefined : check(value, at);

export const list =
  <T>(check: Check<T>): Check<T[]> =>
  (value, at) =>
    Array.isArray(value) ? value.map((item, i) => check(item, `${at}[${i}]`)) : refuse(at, 'is not a list');

export const texts = list(text);

/** A row's translations by canonical tag; an import staged before translations has none. */
export const translations: Check<Record<string, string>> = (value, at) => {
  if (value === undefined) return {};
  const found = object(value, at);
  for (const [tag, translated] of Object.entries(found)) {
    if (canonicalTag(tag) !== tag) refuse(`${at}.${tag}`, 'is not a canonical language tag');
    text(translated, `${at}.${tag}`);
  }
  return found as Record<string, string>;
};

export function parse(json: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    refuse('the manifest', 'is not JSON');
  }
  return object(value, 'the manifest');
}
