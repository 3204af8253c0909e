import { LoggerService } from '@nestjs/common';
import pino, { DestinationStream, Logger } from 'pino';

// The request trace (issue 17, item 4) is exported with the logger: it is what the worker's log lines carry.
export * from './request-trace';

/**
 * Paths pino replaces with `[redacted]` in every log line (issue 17, item 4): credentials a log line
 * could carry (an `Authorization` header, API keys, webhook secrets, passwords) and the bodies of emails
 * (the logging transport used when `SMTP_URL` is unset records the email it would have sent: its
 * recipients, subject and ids stay, its HTML and text do not).
 */
export const LOG_REDACT_PATHS: readonly string[] = [
  'req.headers.authorization',
  'headers.authorization',
  '*.headers.authorization',
  'authorization',
  'apiKey',
  'api_key',
  '*.api_key',
  'key',
  'secret',
  '*.secret',
  'password',
  '*.password',
  'email.html',
  'email.text',
  'email.raw',
  'html',
  'text',
];

/** Longest time a log line waits in the stdout buffer of {@link createRootLogger} (ms). */
export const LOG_FLUSH_INTERVAL_MS = 1000;

/**
 * The process's JSON logger (one line per entry; Fastify adds `request_id` to request logs). Lines go to
 * stdout through an asynchronous buffer (sonic-boom, flushed every few KiB, every
 * {@link LOG_FLUSH_INTERVAL_MS} and at exit), so a request never waits for a terminal or a pipe, and a
 * quiet process (the default level `warn`) still shows its warnings within a second instead of holding
 * them until 4 KiB have piled up; a process killed with SIGKILL can lose its last second of lines.
 * `fatal` lines are flushed at once. Credentials and email bodies are redacted ({@link LOG_REDACT_PATHS}).
 * `stream` replaces stdout (tests).
 */
export function createRootLogger(level: string, name: string, stream?: DestinationStream): Logger {
  const destination = stream || level === 'silent' ? undefined : pino.destination({ dest: 1, sync: false, minLength: 4096 });
  const logger = pino(
    { name, level, base: { app: name }, timestamp: pino.stdTimeFunctions.isoTime, redact: { paths: [...LOG_REDACT_PATHS], censor: '[redacted]' } },
    stream ?? destination ?? pino.destination(1),
  );
  if (destination) {
    const flush = setInterval(() => {
      try {
        destination.flush();
      } catch {
        // destroyed at exit
      }
    }, LOG_FLUSH_INTERVAL_MS);
    flush.unref();
    const fatal = logger.fatal.bind(logger);
    logger.fatal = ((...args: Parameters<typeof fatal>) => {
      fatal(...args);
      destination.flushSync();
    }) as typeof logger.fatal;
  }
  return logger;
}

/** pino's line-writing methods, one per level. */
type LogLevelMethod = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * Fastify's `childLoggerFactory` (issue 11, hot path): a request's logger (`request.log`, bindings
 * `{ request_id }`) that becomes a real pino child only when a line is written at an enabled level, or
 * when something asks for its bindings or a child of it. pino builds a child's bindings by serialising
 * them through the redaction paths, about 3 % of the CPU of `GET /v1/me`, for a logger that at the default
 * level `warn` writes nothing for a successful request. Lines written are the same as with an eager child.
 * With per-route options (a route's own log level or serializers) the child is made at once.
 */
export function lazyRequestLogger(parent: Logger, bindings: Record<string, unknown>, options: Record<string, unknown>): Logger {
  if (Object.keys(options).length > 0) return parent.child(bindings, options);
  return new LazyRequestLogger(parent, bindings) as unknown as Logger;
}

/** See {@link lazyRequestLogger}: one small object per request, its methods on the prototype. */
class LazyRequestLogger {
  private real: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly childBindings: Record<string, unknown>,
  ) {}

  get level(): string {
    return (this.real ?? this.parent).level;
  }

  set level(level: string) {
    this.resolve().level = level;
  }

  isLevelEnabled(level: string): boolean {
    return (this.real ?? this.parent).isLevelEnabled(level);
  }

  child(bindings: Record<string, unknown>, options?: Record<string, unknown>): Logger {
    return this.resolve().child(bindings, options);
  }

  bindings(): Record<string, unknown> {
    return this.resolve().bindings();
  }

  silent(): void {}

  fatal(...line: unknown[]): void {
    this.write('fatal', line);
  }

  error(...line: unknown[]): void {
    this.write('error', line);
  }

  warn(...line: unknown[]): void {
    this.write('warn', line);
  }

  info(...line: unknown[]): void {
    this.write('info', line);
  }

  debug(...line: unknown[]): void {
    this.write('debug', line);
  }

  trace(...line: unknown[]): void {
    this.write('trace', line);
  }

  private write(level: LogLevelMethod, line: unknown[]): void {
    if (!(this.real ?? this.parent).isLevelEnabled(level)) return;
    (this.resolve()[level] as (...args: unknown[]) => void)(...line);
  }

  private resolve(): Logger {
    return (this.real ??= this.parent.child(this.childBindings));
  }
}

/** Nest's logger on top of pino, so framework and application logs share one JSON stream. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly root: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }

  private write(level: 'info' | 'error' | 'warn' | 'debug' | 'trace', message: unknown, rest: unknown[]): void {
    const context = typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
    if (typeof message === 'object' && message !== null) {
      const text = typeof rest[0] === 'string' && rest.length > 1 ? rest[0] : undefined;
      this.root[level]({ context, ...(message as object) }, text);
    } else {
      this.root[level]({ context }, String(message));
    }
  }
}
