import { ValidateBy, type ValidationArguments } from 'class-validator';

/**
 * What no stored text may hold (docs/api.md, "Text"), whether it comes from a form, an import or the
 * command line: NUL (PostgreSQL's text cannot hold it), half of a surrogate pair (not Unicode: each
 * driver would store U+FFFD in its place), the control characters of Unicode (C0, DEL and C1) other than
 * tab, line feed and carriage return (invisible, and the C0 ones are forbidden in the XML the EPUB and OPDS exports write),
 * and the noncharacters U+FFFE and U+FFFF (a byte-swapped BOM, and no character at all).
 */
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]|\p{Cs}/u;

export const NUL_PROBLEM = 'contains a NUL character, which text cannot hold.';
export const NOT_UNICODE_PROBLEM = 'contains text that is not valid Unicode.';

const codePoint = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * What is wrong with a text to be stored, as the end of a sentence that names it ("The title field …",
 * "The phrase …"), or null when nothing is: the first character it may not hold decides.
 */
export function storedTextProblem(text: string): string | null {
  const found = UNSTORABLE.exec(text)?.[0];
  if (found === undefined) return null;
  if (found === '\0') return NUL_PROBLEM;
  if (/\p{Cs}/u.test(found)) return NOT_UNICODE_PROBLEM;
  const kind = found === '\uFFFE' || found === '\uFFFF' ? 'a noncharacter' : 'a control character';
  return `contains ${kind} (${codePoint(found)}), which text cannot hold.`;
}

const problemOf = (value: unknown): string | null => {
  if (typeof value === 'string') return storedTextProblem(value);
  if (!Array.isArray(value)) return null;
  for (const item of value) {
    const problem = typeof item === 'string' ? storedTextProblem(item) : null;
    if (problem) return problem;
  }
  return null;
};

const named = (field: string, problem: string) => `The ${field.replace(/_/g, ' ')} field ${problem}`;

/** A field's problem as the forms name it ("The narrated by field contains …"), or null when it has none. */
export function fieldTextProblem(field: string, value: unknown): string | null {
  const problem = problemOf(value);
  return problem && named(field, problem);
}

/** Set by AnyText(): the field takes any character, and its StoredText rule lets everything pass. */
const ANY_TEXT_FIELD = Symbol('lingonovel:any-text-field');

const isAnyText = (object: object, property: string) =>
  Reflect.getMetadata(ANY_TEXT_FIELD, object, property) === true;

/**
 * Refuses a text (or a list of texts) holding what storedTextProblem names; other values pass, for the
 * field's own rules to judge. Field() adds it to every field; a field marked AnyText() is let through when
 * validated (not when decorated), so AnyText() works wherever it is written: inside Field(…), above it
 * or below it.
 */
export const StoredText = () =>
  ValidateBy({
    name: 'isStoredText',
    validator: {
      validate: (value: unknown, args?: ValidationArguments) =>
        (args !== undefined && isAnyText(args.object, args.property)) || problemOf(value) === null,
      defaultMessage: (args?: ValidationArguments) =>
        named(args?.property ?? 'text', problemOf(args?.value) ?? NUL_PROBLEM),
    },
  });

/**
 * A field taken as sent, whatever it holds: a password (only its hash is kept), a dictation answer (scored
 * as typed), a search or a token (compared, never stored). It takes control characters; NUL and lone
 * surrogates are still refused in every body and query (http/body/body-shape.ts).
 */
export const AnyText = (): PropertyDecorator => (target, key) =>
  Reflect.defineMetadata(ANY_TEXT_FIELD, true, target, key);
