import { ArgumentsHost, ConflictException, HttpStatus, NotFoundException } from '@nestjs/common';
import { ErrorWithDetails, ValidationFailed } from '../platform/common/api-error';
import { DamagedImport } from '../publishing/imports/manifest-checks';
import { ErrorFilter } from './error.filter';
import { answerProblems } from './problem-details';

/** The Content-Type of the last answer `run` sent. */
let sentType: string | undefined;

function run(exception: unknown, asProblem = false) {
  const sent: { status?: number; body?: unknown } = {};
  sentType = undefined;
  const res = {
    headersSent: false,
    locals: {},
    getHeader: () => 'req-123',
    status(code: number) {
      sent.status = code;
      return this;
    },
    type(value: string) {
      sentType = value;
      return this;
    },
    json(body: unknown) {
      sent.body = body;
    },
  };
  const host = {
    switchToHttp: () => ({
      getResponse: () => res,
      getRequest: () => ({ method: 'GET', path: '/api/v1/x' }),
    }),
  } as unknown as ArgumentsHost;
  if (asProblem) answerProblems({} as never, res as never, () => undefined);
  new ErrorFilter().catch(exception, host);
  return sent;
}

describe(ErrorFilter.name, () => {
  beforeAll(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));

  it('hides the details of an unexpected failure and names the request', () => {
    const sent = run(new Error('SQLITE_CORRUPT: secret details at /srv/data'));
    expect(sent).toEqual({
      status: 500,
      body: { message: 'Something went wrong. Please try again later.', request_id: 'req-123' },
    });
  });

  it('keeps the message and the field errors of a 422', () => {
    const sent = run(new ValidationFailed({ title: ['The title field is required.'] }));
    expect(sent).toEqual({
      status: 422,
      body: { message: 'The title field is required.', errors: { title: ['The title field is required.'] } },
    });
  });

  it('answers a 4xx from Express middleware without its internals', () => {
    expect(
      run(
        Object.assign(new Error('request entity too large: 2000000 > 102400'), {
          status: 413,
          type: 'entity.too.large',
        }),
      ),
    ).toEqual({
      status: 413,
      body: { message: 'The request body is too large.' },
    });
    expect(run(new NotFoundException('Book not found.'))).toEqual({
      status: 404,
      body: { message: 'Book not found.' },
    });
  });

  it('sends the fields of an answer that has more than a message, and only those of ours', () => {
    expect(
      run(
        new ErrorWithDetails(HttpStatus.CONFLICT, { message: 'Go there instead.', portal_url: 'https://x' }),
      ),
    ).toEqual({ status: 409, body: { message: 'Go there instead.', portal_url: 'https://x' } });
    expect(run(new ConflictException('Taken.'))).toEqual({ status: 409, body: { message: 'Taken.' } });
  });

  it('answers a damaged import with what to do, not where it is damaged', () => {
    expect(run(new DamagedImport('rows[3].file is not a staged file name'))).toEqual({
      status: 409,
      body: { message: "This import's data is damaged: stage it again." },
    });
  });

  it('labels its answers as JSON, whatever type the route had set for its success', () => {
    run(new NotFoundException('Book not found.'));
    expect(sentType).toBe('application/json');
  });
});

describe(`${ErrorFilter.name} under the problem details' path`, () => {
  it('answers the same status and message as RFC 9457 problem details, labelled as such', () => {
    const sent = run(new ValidationFailed({ page: ['Bad page.'] }), true);
    expect(sentType).toBe('application/problem+json');
    expect(sent).toEqual({
      status: 422,
      body: {
        type: 'about:blank',
        title: 'Unprocessable Entity',
        status: 422,
        detail: 'Bad page.',
        message: 'Bad page.',
        errors: { page: ['Bad page.'] },
      },
    });
  });
});
