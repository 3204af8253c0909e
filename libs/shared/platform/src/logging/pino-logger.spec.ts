import { Writable } from 'node:stream';
import { createRootLogger, lazyRequestLogger, PinoNestLogger } from './pino-logger';

/** Issue 17, item 4: secrets and email bodies never reach the logs. */
describe('log redaction', () => {
  const capture = () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
        done();
      },
    });
    return { lines, logger: createRootLogger('info', 'test', stream) };
  };

  it('redacts the email body the logging transport records, keeping its recipients and subject', () => {
    const { lines, logger } = capture();
    new PinoNestLogger(logger).log({ emailId: 'e-1', email: { to: 'julie@example.com', subject: 'Votre soumission', html: '<p>lien secret</p>', text: 'lien secret' } }, 'Email recorded');

    expect(lines[0]).toMatchObject({ emailId: 'e-1', email: { to: 'julie@example.com', subject: 'Votre soumission', html: '[redacted]', text: '[redacted]' } });
    expect(JSON.stringify(lines[0])).not.toContain('lien secret');
  });

  it('redacts Authorization headers, API keys, webhook secrets and passwords', () => {
    const { lines, logger } = capture();
    logger.info({
      req: { headers: { authorization: 'Bearer lf_live_AAAA_BBBB' } },
      webhook: { secret: 'whsec_abc', url: 'https://example.com/hook' },
      api_key: 'lf_live_CCCC_DDDD',
      smtp: { password: 'hunter2' },
    });

    const line = JSON.stringify(lines[0]);
    for (const secret of ['lf_live_AAAA_BBBB', 'whsec_abc', 'lf_live_CCCC_DDDD', 'hunter2']) expect(line).not.toContain(secret);
    expect(lines[0]).toMatchObject({ webhook: { url: 'https://example.com/hook', secret: '[redacted]' } });
  });
});

/** Issue 11 (hot path): a request's logger costs nothing until it writes a line, and writes the same lines. */
describe('lazyRequestLogger (Fastify childLoggerFactory)', () => {
  const capture = (level: string) => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
        done();
      },
    });
    return { lines, root: createRootLogger(level, 'test', stream) };
  };

  it('makes no pino child while nothing is written at an enabled level (info and debug at level warn)', () => {
    const { lines, root } = capture('warn');
    const child = jest.spyOn(root, 'child');
    const logger = lazyRequestLogger(root, { request_id: 'r-1' }, {});

    logger.info({ route: '/v1/me' }, 'request completed');
    logger.debug('detail');
    expect(logger.isLevelEnabled('info')).toBe(false);
    expect(logger.level).toBe('warn');

    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
  });

  it('writes the same line as an eager child, request_id included, once a line is written at an enabled level', () => {
    const lazy = capture('info');
    const eager = capture('info');
    lazyRequestLogger(lazy.root, { request_id: 'r-2' }, {}).warn({ statusCode: 500, api_key: 'lf_live_X_Y' }, 'failed');
    eager.root.child({ request_id: 'r-2' }).warn({ statusCode: 500, api_key: 'lf_live_X_Y' }, 'failed');

    const strip = (line: Record<string, unknown>) => ({ ...line, time: null });
    expect(lazy.lines.map(strip)).toEqual(eager.lines.map(strip));
    expect(lazy.lines[0]).toMatchObject({ request_id: 'r-2', statusCode: 500, api_key: '[redacted]', msg: 'failed' });
  });

  it('with per-route options (a route log level) makes the child at once, with those options', () => {
    const { lines, root } = capture('warn');
    const child = jest.spyOn(root, 'child');
    const logger = lazyRequestLogger(root, { request_id: 'r-3' }, { level: 'debug' });

    expect(child).toHaveBeenCalledWith({ request_id: 'r-3' }, { level: 'debug' });
    logger.debug('route detail');
    expect(lines[0]).toMatchObject({ request_id: 'r-3', msg: 'route detail' });
  });

  it('a child of the request logger keeps the request_id binding', () => {
    const { lines, root } = capture('info');
    lazyRequestLogger(root, { request_id: 'r-4' }, {}).child({ part: 'x' }).info('nested');
    expect(lines[0]).toMatchObject({ request_id: 'r-4', part: 'x', msg: 'nested' });
  });
});
