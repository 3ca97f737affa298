import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AnswerWithHeaders, ErrorWithDetails } from '../platform/common/api-error';
import { DAMAGED_IMPORT_MESSAGE, DamagedImport } from '../publishing/imports/manifest-checks';
import { StoreUnavailableError } from '../platform/media/store/media-store';
import { STORE_DOWN_MESSAGE } from '../platform/media/serve/store-media-handler';
import { answersProblems, problemOf, PROBLEM_TYPE, type ShapedError } from './problem-details';

/** Errors that Express middleware (body parsers, multer) raise with an HTTP status of their own. */
interface HttpishError {
  status?: number;
  statusCode?: number;
  type?: string;
  code?: string;
  expose?: boolean;
}

const CLIENT_MESSAGES: Record<string, string> = {
  'entity.parse.failed': 'The request body could not be parsed.',
  'entity.too.large': 'The request body is too large.',
  'encoding.unsupported': 'The request body has an unsupported encoding.',
  'charset.unsupported': 'The request body has an unsupported character set.',
};

const UNMATCHED_ROUTE = /^Cannot [A-Z]+ \//;

function fromHttpException(exception: HttpException): { status: number; body: Record<string, unknown> } {
  const status = exception.getStatus();
  const response = exception.getResponse();
  if (typeof response === 'string') return { status, body: { message: response } };
  const { message, errors } = response as { message?: unknown; errors?: unknown };
  const text = Array.isArray(message)
    ? String(message[0])
    : typeof message === 'string'
      ? message
      : exception.message;
  return { status, body: errors ? { message: text, errors } : { message: text } };
}

/**
 * Shapes every API error as `{ message }` (plus `errors` for 422s). Details of unexpected failures go to
 * the log with the request id, never to the client. The answer is labelled `application/json` whatever
 * the route had set for its success (an OPDS feed's Atom type), or, under the paths of problem-details.ts,
 * is problem details, `application/problem+json`.
 */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('Error');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const res = http.getResponse<Response>();
    const answer = this.answerOf(exception, http.getRequest<Request>(), res);
    if (res.headersSent) {
      res.end();
      return;
    }
    // Headers an error carries (Retry-After): a service throws them rather than holding the response.
    if (exception instanceof AnswerWithHeaders)
      for (const [name, value] of Object.entries(exception.headers)) res.setHeader(name, value);
    this.send(res, answer);
  }

  private send(res: Response, answer: ShapedError): void {
    if (answersProblems(res)) res.status(answer.status).type(PROBLEM_TYPE).json(problemOf(answer));
    else res.status(answer.status).type('application/json').json(answer.body);
  }

  private answerOf(exception: unknown, req: Request, res: Response): ShapedError {
    const requestId = res.getHeader('x-request-id');
    let status: HttpStatus;
    let body: Record<string, unknown>;
    if (exception instanceof ErrorWithDetails) {
      status = exception.getStatus();
      body = { ...exception.body };
    } else if (exception instanceof HttpException) {
      ({ status, body } = fromHttpException(exception));
      // Nest's own "Cannot GET /path?query" would echo the query string, which may hold a token.
      if (status === HttpStatus.NOT_FOUND && UNMATCHED_ROUTE.test(String(body.message))) {
        body = { message: `No API route matches ${req.method} ${req.path}.` };
      }
      // Express's own message quotes the undecodable input back.
      if (status === HttpStatus.BAD_REQUEST && /^Failed to decode param/.test(String(body.message))) {
        body = { message: 'The address contains an invalid escape sequence.' };
      }
    } else if (exception instanceof StoreUnavailableError) {
      // The media store is down or refusing: ours to log, a retry later for the client.
      status = HttpStatus.SERVICE_UNAVAILABLE;
      body = { message: STORE_DOWN_MESSAGE };
      this.logger.error(
        `${req.method} ${req.path} failed (request ${String(requestId)}): ${exception.message}`,
      );
    } else if (exception instanceof DamagedImport) {
      // A staged import's row that is not what staging wrote: the administrator stages the files again;
      // where it is damaged goes to the log (the path names the import).
      status = HttpStatus.CONFLICT;
      body = { message: DAMAGED_IMPORT_MESSAGE };
      this.logger.warn(`${req.method} ${req.path} (request ${String(requestId)}): ${exception.message}`);
    } else {
      const error = exception as HttpishError;
      const candidate = error?.status ?? error?.statusCode;
      if (typeof candidate === 'number' && candidate >= 400 && candidate < 500) {
        status = candidate;
        body = {
          message:
            CLIENT_MESSAGES[error.type ?? ''] ??
            (candidate === 404 ? 'Not found.' : 'The request could not be processed.'),
        };
      } else {
        status = HttpStatus.INTERNAL_SERVER_ERROR;
        body = { message: 'Something went wrong. Please try again later.', request_id: requestId };
        this.logger.error(
          `${req.method} ${req.path} failed (request ${String(requestId)})`,
          (exception as Error)?.stack ?? String(exception),
        );
      }
    }
    return { status, body };
  }
}
