import { BadRequestException } from '@nestjs/common';
import { MAX_BODY_DEPTH } from '../../platform/common/body-limits';
import { ValidationFailed } from '../../platform/common/api-error';
import { NOT_UNICODE_PROBLEM, NUL_PROBLEM } from '../../platform/common/stored-text';

/**
 * Checks a parsed body before validation sees it, without recursion (so depth itself cannot overflow the
 * stack): nesting deeper than MAX_BODY_DEPTH is a 400, and a string that is not valid Unicode (a lone
 * surrogate, which JSON's \u escapes can make) is a 422 on its field, and so is a NUL, in every field.
 * Validators assume these hold. Other control characters are refused by the fields that store text
 * (platform/common/stored-text.ts), not here: a password or a dictation answer takes them.
 */
// With the u flag, a well-formed pair is one code point; only a lone surrogate is in category Cs.
const LONE_SURROGATE = /\p{Cs}/u;
// PostgreSQL's text cannot hold NUL at all: refused here, it is a 422 rather than the database's error.
const NUL = '\0';

export function checkBodyShape(body: unknown): void {
  const stack: { value: unknown; depth: number; field: string }[] = [{ value: body, depth: 0, field: '' }];
  while (stack.length > 0) {
    const { value, depth, field } = stack.pop()!;
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) {
        throw ValidationFailed.field(field || 'body', `This field ${NOT_UNICODE_PROBLEM}`);
      }
      if (value.includes(NUL)) {
        throw ValidationFailed.field(field || 'body', `This field ${NUL_PROBLEM}`);
      }
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_BODY_DEPTH) {
      throw new BadRequestException(
        `The request body is nested too deeply (at most ${MAX_BODY_DEPTH} levels).`,
      );
    }
    for (const [key, child] of Object.entries(value)) {
      const name = field || key;
      if (LONE_SURROGATE.test(key) || key.includes(NUL)) {
        throw ValidationFailed.field('body', 'A field name contains text that is not valid Unicode.');
      }
      stack.push({ value: child, depth: depth + 1, field: name });
    }
  }
}
