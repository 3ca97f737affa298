import {
  BadRequestException,
  NotFoundException,
  HttpException,
  HttpStatus,
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { Request } from 'express';
import qs from 'qs';
import type { Observable } from 'rxjs';
import { ValidationFailed } from '../../platform/common/api-error';
import { BODY_LIMIT } from '../../platform/common/body-limits';
import { unknownField } from '../validation';
import { checkBodyShape } from './body-shape';
import { readBody } from './read-body';

const FORM_PARAMETERS = 1000;
/** `__proto__` as a form key's name or as one of its `[…]` parts. */
const PROTO_SEGMENT = /(^|\[)__proto__(\]|\[|$)/;

function charsetOf(req: Request): string {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.headers['content-type'] ?? '');
  return (match?.[1] ?? 'utf-8').toLowerCase();
}

function parse(req: Request, raw: Buffer): unknown {
  const text = raw.toString('utf8');
  return req.is('application/json') ? parseJson(text) : parseForm(text);
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BadRequestException('The request body is not valid JSON.');
  }
}

/** A url-encoded form, parsed as body-parser's extended mode did (`ids[]=1&ids[]=2` is a list). */
export function parseForm(text: string): unknown {
  const parameters = text.split('&').length;
  if (parameters > FORM_PARAMETERS) {
    throw new HttpException(
      { message: `The form has too many fields (at most ${FORM_PARAMETERS}).` },
      HttpStatus.PAYLOAD_TOO_LARGE,
    );
  }
  // qs drops a `__proto__` key (`__proto__=1`, `a[__proto__]=1`) without a word; the decoder sees every
  // key first, so it is refused as the validation refuses any unknown key.
  const refused = new Map<string, string[]>();
  let parsed: unknown;
  try {
    parsed = qs.parse(text, {
      decoder: (value, decode, charset, type) => {
        const decoded = decode(value, decode, charset);
        if (type === 'key' && PROTO_SEGMENT.test(decoded)) {
          const parts = decoded.replace(/\]$/, '').split(/\]?\[/);
          refused.set(parts.slice(0, parts.indexOf('__proto__') + 1).join('.'), [unknownField('__proto__')]);
        }
        return decoded;
      },
      allowPrototypes: true,
      // As body-parser: a list may be as long as the form has fields (a reorder sends every id).
      arrayLimit: Math.max(100, parameters),
      depth: 32,
      strictDepth: true,
      parameterLimit: FORM_PARAMETERS,
    });
  } catch {
    throw new BadRequestException('The form is nested too deeply.');
  }
  if (refused.size > 0) throw new ValidationFailed(Object.fromEntries(refused));
  return parsed;
}

/**
 * Reads JSON and url-encoded bodies. It runs after the guards (interceptors do), so a request that is
 * refused never has its body read, and it stops at BODY_LIMIT. Multipart bodies are the
 * MultipartInterceptor's; other types are left unread and answered by validation.
 */
@Injectable()
export class BodyInterceptor implements NestInterceptor {
  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = context.switchToHttp().getRequest<Request & { rawBody?: Buffer }>();
    req.body ??= {};
    // The query and the path are checked like bodies: a NUL or a lone surrogate reaches no query.
    if (Object.values(req.params ?? {}).some((value) => /\0|\p{Cs}/u.test(String(value))))
      throw new NotFoundException('Not found.');
    checkBodyShape(req.query);
    if (!req.is(['application/json', 'application/x-www-form-urlencoded'])) return next.handle();
    const charset = charsetOf(req);
    if (charset !== 'utf-8' && charset !== 'utf8') {
      throw new HttpException(
        { message: 'The request body has an unsupported character set. Send UTF-8.' },
        HttpStatus.UNSUPPORTED_MEDIA_TYPE,
      );
    }
    const raw = await readBody(req, BODY_LIMIT);
    // Stripe's webhook verifies the exact bytes it signed.
    req.rawBody = raw;
    const body = parse(req, raw);
    checkBodyShape(body);
    req.body = body;
    return next.handle();
  }
}
