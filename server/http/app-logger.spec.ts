import { Logger } from '@nestjs/common';
import { AppLogger, appLogger, JsonLogger } from './app-logger';

function capture() {
  const lines: string[] = [];
  const logger = new JsonLogger({ write: (line: string) => void lines.push(line) });
  const entries = () =>
    lines.map((line) => {
      const { time, pid, hostname, ...rest } = JSON.parse(line) as Record<string, unknown>;
      expect([typeof time, pid, typeof hostname]).toEqual(['string', process.pid, 'string']);
      return rest;
    });
  return { logger, entries };
}

describe(JsonLogger.name, () => {
  it("reads Nest's arguments as Nest's own logger does: the last string is the context, an error's stack before it", () => {
    const { logger, entries } = capture();
    const stack = 'Error: boom\n    at thing (/app/x.js:1:2)';
    logger.log('Listening', 'Lingonovel');
    logger.warn('Careful');
    logger.error('Failed', stack, 'Error');
    logger.error('Failed', stack);
    logger.error('Failed', undefined, 'Error');
    logger.debug('Details', 'Cache');
    logger.verbose('More', 'Cache');
    expect(entries()).toEqual([
      { level: 'info', context: 'Lingonovel', msg: 'Listening' },
      { level: 'warn', msg: 'Careful' },
      { level: 'error', context: 'Error', stack, msg: 'Failed' },
      { level: 'error', stack, msg: 'Failed' },
      { level: 'error', context: 'Error', msg: 'Failed' },
      { level: 'debug', context: 'Cache', msg: 'Details' },
      { level: 'trace', context: 'Cache', msg: 'More' },
    ]);
  });

  it('writes an object message as fields and an Error with its stack', () => {
    const { logger, entries } = capture();
    logger.log({ msg: 'request completed', status: 200 }, 'HTTP');
    logger.error(new Error('boom'), 'Error');
    const [fields, error] = entries();
    expect(fields).toEqual({ level: 'info', context: 'HTTP', msg: 'request completed', status: 200 });
    expect(error).toEqual({
      level: 'error',
      context: 'Error',
      msg: 'boom',
      error: { type: 'Error', message: 'boom', stack: expect.stringContaining('Error: boom') },
    });
  });

  it('writes only the name, message and stack of an error, never its other properties (a query and its parameters)', () => {
    const { logger, entries } = capture();
    const failure = Object.assign(new Error('duplicate key'), { query: 'INSERT …', parameters: ['secret'] });
    logger.error(failure, 'Error');
    expect(JSON.stringify(entries())).not.toContain('secret');
  });

  it("leaves out Nest's start-up chatter, as the text logger does", () => {
    const { logger, entries } = capture();
    logger.log('AppModule dependencies initialized', 'InstanceLoader');
    logger.log('Mapped {/api/v1/health, GET} route', 'RouterExplorer');
    logger.warn('Still said', 'NestApplication');
    expect(entries()).toEqual([{ level: 'warn', context: 'NestApplication', msg: 'Still said' }]);
  });

  it('is what LOG_FORMAT=json chooses, and receives what Nest logs', () => {
    expect(appLogger('text')).toBeInstanceOf(AppLogger);
    expect(appLogger('json')).toBeInstanceOf(JsonLogger);
    const { logger, entries } = capture();
    Logger.overrideLogger(logger);
    try {
      new Logger('Lingonovel').log('Listening');
    } finally {
      Logger.overrideLogger(false);
    }
    expect(entries()).toEqual([{ level: 'info', context: 'Lingonovel', msg: 'Listening' }]);
  });
});

describe(AppLogger.name, () => {
  it('writes plain lines (no colours off a terminal), and an error only after the lines before it', async () => {
    const order: string[] = [];
    const stdout = jest.spyOn(process.stdout, 'write').mockImplementation((text) => {
      order.push(`out:${String(text)}`);
      return true;
    });
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation((text) => {
      order.push(`err:${String(text)}`);
      return true;
    });
    try {
      const logger = new AppLogger({ colors: false });
      logger.log('GET /books 200 0.4ms', 'HTTP');
      expect(order).toEqual([]);
      logger.error('Failed', 'Error');
      logger.log('after', 'HTTP');
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      stdout.mockRestore();
      stderr.mockRestore();
    }
    expect(order).toEqual([
      expect.stringMatching(/^out:\[Nest\] \d+ {2}- .* {5}LOG \[HTTP\] GET \/books 200 0\.4ms\n$/),
      expect.stringMatching(/^err:\[Nest\] \d+ {2}- .* {3}ERROR \[Error\] Failed\n$/),
      expect.stringMatching(/^out:.*\[HTTP\] after\n$/),
    ]);
    expect(order.join('')).not.toContain('\u001b[');
  });
});
