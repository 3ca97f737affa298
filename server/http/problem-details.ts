import type { NextFunction, Request, Response } from 'express';
import { STATUS_CODES } from 'node:http';

/** An error answer: its status and its body, `{ message }` (and `errors` for a 422). */
export interface ShapedError {
  status: number;
  body: Record<string, unknown>;
}

/** RFC 9457's media type: what the OPDS routes' errors are labelled (docs/formats.md "OPDS 1.2"). */
export const PROBLEM_TYPE = 'application/problem+json';
/**
 * Where every error is problem details rather than `{ message }`: routes whose success is not JSON (the
 * OPDS feeds), where a client tells an error by its media type. Mounted before routing (create-app.ts),
 * so a guard's error and an unknown path are answered the same way; the OpenAPI document reads it too.
 */
export const PROBLEM_DETAILS_PATH = '/api/v1/opds';
const ANSWERS_PROBLEMS = 'lingonovel:problem-details';

/** Middleware on PROBLEM_DETAILS_PATH: the error filter answers this request's errors as problems. */
export function answerProblems(_req: Request, res: Response, next: NextFunction): void {
  res.locals[ANSWERS_PROBLEMS] = true;
  next();
}

export const answersProblems = (res: Response): boolean => res.locals?.[ANSWERS_PROBLEMS] === true;

/**
 * An error as RFC 9457 problem details: `type` (always `about:blank`, the status says it all), `title`
 * (the status's name), `status`, and `detail`, the API's `message`; `message` itself and any other field
 * (`errors` of a 422, `request_id` of a 500) stay beside them as extension members, so a client of the
 * JSON API reads it as every other error.
 */
export function problemOf({ status, body }: ShapedError): Record<string, unknown> {
  return {
    type: 'about:blank',
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail: body.message,
    ...body,
  };
}
