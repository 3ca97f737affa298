import { ConsoleLogger, type LoggerService, type LogLevel } from '@nestjs/common';
import pino, { type DestinationStream, type Level, type Logger as Pino } from 'pino';
import type { LogFormat } from '../platform/config';
import { stdoutLines } from './log-output';

/** Nest's start-up chatter (one line per module and route) hides the lines an operator needs. */
const QUIET_CONTEXTS = new Set([
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestFactory',
  'NestApplication',
]);

export class AppLogger extends ConsoleLogger {
  private stampSecond = -1;
  private stamp = '';

  log(message: unknown, context?: string): void {
    if (context && QUIET_CONTEXTS.has(context)) return;
    super.log(message, context);
  }

  /**
   * The line's time, which shows whole seconds: formatted once a second rather than for every line (a
   * page-cache hit's own work is a few microseconds; Intl's formatting of the time cost as much again).
   */
  protected getTimestamp(): string {
    const second = Math.floor(Date.now() / 1000);
    if (second !== this.stampSecond) {
      this.stampSecond = second;
      this.stamp = super.getTimestamp();
    }
    return this.stamp;
  }

  /**
   * Nest's own formatting of each line, written through the batched standard output (log-output.ts). What
   * Nest sends to standard error (errors and their stacks) goes straight out, after what is held.
   */
  protected printMessages(
    messages: unknown[],
    context = '',
    logLevel: LogLevel = 'log',
    writeStreamType?: 'stdout' | 'stderr',
    errorStack?: unknown,
  ): void {
    const out = stdoutLines();
    if (writeStreamType === 'stderr') {
      out.flush();
      super.printMessages(messages, context, logLevel, writeStreamType, errorStack);
      return;
    }
    const pid = this.formatPid(process.pid);
    const contextMessage = this.formatContext(context);
    const level = logLevel.toUpperCase().padStart(7, ' ');
    for (const message of messages)
      out.write(
        this.formatMessage(logLevel, message, pid, level, contextMessage, this.updateAndGetTimestampDiff()),
      );
  }
}

/** How Nest's ConsoleLogger tells a stack trace from a context name among the optional arguments. */
const STACK = /^(.)+\n\s+at .+:\d+:\d+/;

/**
 * LOG_FORMAT=json: every line Nest logs (boot, warnings, the error filter's reports, the request log)
 * becomes one JSON object through pino, so a log collector sees one format. Nest's calling convention
 * is kept: the last string argument is the context, an error's first extra argument its stack. A plain
 * object as the message (the request log's fields) is written as fields, not as text.
 */
export class JsonLogger implements LoggerService {
  private readonly pino: Pino;

  constructor(destination: DestinationStream = stdoutLines()) {
    this.pino = pino(
      {
        // Everything Nest's own logger prints (it has no level threshold by default).
        level: 'trace',
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
      },
      destination,
    );
  }

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: Level, message: unknown, params: unknown[]): void {
    const fields: Record<string, unknown> = {};
    let rest = params;
    const last = rest.at(-1);
    if (typeof last === 'string' && !STACK.test(last)) {
      fields.context = last;
      rest = rest.slice(0, -1);
    }
    if (level === 'info' && typeof fields.context === 'string' && QUIET_CONTEXTS.has(fields.context)) return;
    if (level === 'error' && typeof rest[0] === 'string') {
      fields.stack = rest[0];
      rest = rest.slice(1);
    }
    rest = rest.filter((extra) => extra !== undefined);
    if (rest.length) fields.details = rest;

    // Only the name, message and stack: pino's own error serializer would copy every enumerable property,
    // and a query error carries its SQL and parameters.
    if (message instanceof Error)
      this.pino[level](
        { ...fields, error: { type: message.name, message: message.message, stack: message.stack } },
        message.message,
      );
    else if (message !== null && typeof message === 'object') this.pino[level]({ ...fields, ...message });
    else this.pino[level](fields, String(message));
  }
}

/**
 * Colours only on a terminal (and never with NO_COLOR): escape codes are noise in a log file or a
 * collector, and deciding once spares Nest a look at the environment for every piece of every line.
 */
function colours(): boolean {
  return process.stdout.isTTY === true && !process.env.NO_COLOR;
}

export function appLogger(format: LogFormat): LoggerService {
  return format === 'json' ? new JsonLogger() : new AppLogger({ colors: colours() });
}
