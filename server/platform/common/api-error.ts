import { HttpException, HttpStatus } from '@nestjs/common';

export type FieldErrors = Record<string, string[]>;

/** The validation failure of docs/product.md section 5: 422 with one summary message and the messages per field. */
export class ValidationFailed extends HttpException {
  constructor(errors: FieldErrors, message?: string) {
    const first = Object.values(errors).find((list) => list.length > 0)?.[0];
    super(
      { message: message ?? first ?? 'The given data was invalid.', errors },
      HttpStatus.UNPROCESSABLE_ENTITY,
    );
  }

  static field(field: string, message: string): ValidationFailed {
    return new ValidationFailed({ [field]: [message] });
  }
}

/** A 422 with only a message, for rule failures that are not about one field (docs/product.md section 8). */
export class RuleFailed extends HttpException {
  constructor(message: string) {
    super({ message }, HttpStatus.UNPROCESSABLE_ENTITY);
  }
}

/**
 * An error answer with fields besides `message` that a client acts on (where to go instead). The error
 * filter sends its body as written here; the extra fields of Nest's own exceptions are internals and are
 * dropped.
 */
export class ErrorWithDetails extends HttpException {
  constructor(
    status: HttpStatus,
    readonly body: { message: string } & Record<string, unknown>,
  ) {
    super(body, status);
  }
}

/**
 * An error answer that carries headers of its own (Retry-After, WWW-Authenticate): the error filter
 * (http/error.filter.ts) sets them, so a service need not hold the response to say "come back later".
 */
export class AnswerWithHeaders extends HttpException {
  constructor(
    status: HttpStatus,
    message: string,
    readonly headers: Record<string, string>,
  ) {
    super({ message }, status);
  }
}

export const tryAgainIn = (seconds: number, message: string) =>
  new AnswerWithHeaders(HttpStatus.SERVICE_UNAVAILABLE, message, {
    'Retry-After': String(Math.max(1, Math.ceil(seconds))),
  });
