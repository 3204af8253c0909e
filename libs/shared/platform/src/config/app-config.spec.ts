import { AppConfig, ConfigError } from './app-config';

/** Issue 17 › Validated configuration: every variable is parsed and checked; a bad one is reported as `NAME=value: expected …`. */
describe('AppConfig validation', () => {
  const problemsOf = (env: Record<string, string | undefined>): string[] => {
    try {
      new AppConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).problems;
    }
    throw new Error('expected a ConfigError');
  };

  it('accepts an empty environment with the documented defaults', () => {
    const config = new AppConfig({});
    expect(config.port).toBe(3000);
    expect(config.publicBaseUrl).toBe('http://127.0.0.1:3000');
    expect(config.outboxRelayBatchSize).toBe(100);
    expect(config.emailRetryDelayMs).toBe(30_000);
    expect(config.trustProxy).toBe(false);
    expect(config.adminToken).toBeNull();
    expect(config.logLevel).toBe('info');
  });

  it('PORT=abc is refused: expected an integer between 1 and 65535', () => {
    expect(problemsOf({ PORT: 'abc' })).toEqual(['PORT=abc: expected an integer between 1 and 65535']);
  });

  it('PORT out of range (0, 70000) or not a plain integer (3000.5, 1e3) is refused', () => {
    for (const value of ['0', '70000', '3000.5', '1e3', '12abc']) {
      expect(problemsOf({ PORT: value })).toEqual([`PORT=${value}: expected an integer between 1 and 65535`]);
    }
  });

  it('OUTBOX_RELAY_BATCH_SIZE=-5 is refused', () => {
    expect(problemsOf({ OUTBOX_RELAY_BATCH_SIZE: '-5' })).toEqual(['OUTBOX_RELAY_BATCH_SIZE=-5: expected an integer between 1 and 10000']);
  });

  it("EMAIL_RETRY_DELAY_MS='' is refused (an empty number is not unset)", () => {
    expect(problemsOf({ EMAIL_RETRY_DELAY_MS: '' })).toEqual(['EMAIL_RETRY_DELAY_MS="": expected an integer >= 1']);
  });

  it('every bad variable is listed, one line each', () => {
    const error = (() => {
      try {
        new AppConfig({ PORT: 'abc', LOG_LEVEL: 'loud', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'yes', AUTOMATION_MAX_RETRIES: '-1' });
      } catch (caught) {
        return caught as ConfigError;
      }
      throw new Error('expected a ConfigError');
    })();
    expect(error.message.split('\n')).toEqual([
      'PORT=abc: expected an integer between 1 and 65535',
      'WEBHOOK_ALLOW_PRIVATE_TARGETS=yes: expected true or false',
      'LOG_LEVEL=loud: expected one of trace, debug, info, warn, error, fatal, silent',
      'AUTOMATION_MAX_RETRIES=-1: expected an integer between 0 and 1000',
    ]);
  });

  it('NODE_ENV, URLs, TRUST_PROXY and supervisor variables are checked', () => {
    expect(problemsOf({ NODE_ENV: 'prod' })).toEqual(['NODE_ENV=prod: expected one of development, production, test']);
    expect(problemsOf({ PUBLIC_BASE_URL: 'example.com' })).toEqual(['PUBLIC_BASE_URL=example.com: expected a URL starting with http:// or https://']);
    expect(problemsOf({ TRUST_PROXY: '127.0.0.1,not-an-ip' })).toEqual([
      'TRUST_PROXY=127.0.0.1,not-an-ip: expected comma-separated IP addresses or CIDR ranges (e.g. 127.0.0.1,10.0.0.0/8)',
    ]);
    expect(problemsOf({ SEED_DEMO: 'no' })).toEqual(['SEED_DEMO=no: expected true or false']);
    expect(problemsOf({ DATABASE_POOL_SIZE: '0' })).toEqual(['DATABASE_POOL_SIZE=0: expected an integer between 1 and 1000']);
    expect(problemsOf({ STOP_TIMEOUT_MS: 'soon' })).toEqual(['STOP_TIMEOUT_MS=soon: expected an integer >= 1']);
    expect(problemsOf({ WORKER_HEALTH_PORT: '99999' })).toEqual(['WORKER_HEALTH_PORT=99999: expected an integer between 0 and 65535, or empty']);
    expect(new AppConfig({ WORKER_HEALTH_PORT: '' }).workerHealthPort).toBeNull();
    expect(new AppConfig({ WORKER_HEALTH_PORT: '3100' }).workerHealthPort).toBe(3100);
  });

  it('WORKER_NICE (an integer from 0 to 19) and DATABASE_PREPARED_STATEMENTS (true or false) are checked, so npm start stops on them too', () => {
    for (const value of ['42', '20', '-1', '5.5', 'low']) {
      expect(problemsOf({ WORKER_NICE: value })).toEqual([`WORKER_NICE=${value}: expected an integer between 0 and 19`]);
    }
    expect(problemsOf({ WORKER_NICE: '' })).toEqual(['WORKER_NICE="": expected an integer between 0 and 19']);
    for (const value of ['no', 'FALSE', '0']) {
      expect(problemsOf({ DATABASE_PREPARED_STATEMENTS: value })).toEqual([`DATABASE_PREPARED_STATEMENTS=${value}: expected true or false`]);
    }
    for (const env of [{ WORKER_NICE: '0' }, { WORKER_NICE: '19' }, { DATABASE_PREPARED_STATEMENTS: 'false' }, { DATABASE_PREPARED_STATEMENTS: 'true' }]) {
      expect(() => new AppConfig(env)).not.toThrow();
    }
  });

  it('secret values are not echoed: SECRET_ENCRYPTION_KEY, DATABASE_URL, SMTP_URL', () => {
    expect(problemsOf({ SECRET_ENCRYPTION_KEY: 'tooshort' })).toEqual(['SECRET_ENCRYPTION_KEY=(hidden, 8 characters): expected 32 bytes, hex or base64']);
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual([
      'SECRET_ENCRYPTION_KEY=(unset): expected 32 bytes, hex or base64 (required when NODE_ENV=production)',
    ]);
    expect(problemsOf({ DATABASE_URL: 'mysql://u:pw@h/db' })).toEqual(['DATABASE_URL=(hidden, 17 characters): expected a URL starting with postgres:// or postgresql://']);
    expect(problemsOf({ SMTP_URL: 'http://mail' })).toEqual(['SMTP_URL=(hidden, 11 characters): expected a URL starting with smtp:// or smtps://']);
  });

  it('empty means unset only for ADMIN_TOKEN, SMTP_URL, WEBHOOK_CA_FILE, TRUST_PROXY and SECRET_ENCRYPTION_KEY', () => {
    const config = new AppConfig({ ADMIN_TOKEN: '', SMTP_URL: '', WEBHOOK_CA_FILE: '', TRUST_PROXY: '', SECRET_ENCRYPTION_KEY: '' });
    expect([config.adminToken, config.smtpUrl, config.webhookCaFile, config.trustProxy]).toEqual([null, null, null, false]);
    expect(problemsOf({ HOST: '' })).toEqual(['HOST="": expected a non-empty string']);
  });

  it('valid values are parsed, and with() validates the overrides too', () => {
    const key = 'ab'.repeat(32);
    const config = new AppConfig({ PORT: '8080', TRUST_PROXY: '127.0.0.1, 10.0.0.0/8', SECRET_ENCRYPTION_KEY: key, WEBHOOK_SWEEP_GRACE_MS: '0' });
    expect(config.port).toBe(8080);
    expect(config.trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8']);
    expect(config.secretEncryptionKey.equals(Buffer.from(key, 'hex'))).toBe(true);
    expect(config.webhookDelivery.sweepGraceMs).toBe(0);
    expect(() => config.with({ OUTBOX_RELAY_INTERVAL_MS: '0' })).toThrow('OUTBOX_RELAY_INTERVAL_MS=0: expected an integer >= 1');
  });
});
