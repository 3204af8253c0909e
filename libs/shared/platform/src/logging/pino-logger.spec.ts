import { Writable } from 'node:stream';
import { createRootLogger, PinoNestLogger } from './pino-logger';

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
