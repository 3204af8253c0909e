import { AppConfig, ConfigError } from '../../config/app-config';

describe('DATABASE_READ_URLS, DATABASE_READ_MAX_LAG_MS, DATABASE_READ_POLL_INTERVAL_MS', () => {
  it('unset or empty: no replica (every read on the primary), default bounds', () => {
    for (const value of [undefined, '', ' , ']) {
      expect(new AppConfig({ DATABASE_READ_URLS: value }).readReplicas).toEqual({ urls: [], maxLagMs: 1000, pollIntervalMs: 200 });
    }
  });

  it('a comma-separated list of PostgreSQL URLs, trimmed', () => {
    const config = new AppConfig({ DATABASE_READ_URLS: 'postgres://r1:5432/leadflow, postgresql://r2/leadflow', DATABASE_READ_MAX_LAG_MS: '250' });
    expect(config.readReplicas).toEqual({ urls: ['postgres://r1:5432/leadflow', 'postgresql://r2/leadflow'], maxLagMs: 250, pollIntervalMs: 200 });
  });

  it('refuses another scheme (value hidden) and a lag bound past 60 s, one line each', () => {
    try {
      new AppConfig({ DATABASE_READ_URLS: 'postgres://r1/leadflow,mysql://secret@r2/x', DATABASE_READ_MAX_LAG_MS: '60001' });
      throw new Error('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([
        expect.stringMatching(/^DATABASE_READ_URLS=\(hidden, \d+ characters\): expected comma-separated URLs/),
        'DATABASE_READ_MAX_LAG_MS=60001: expected an integer between 1 and 60000',
      ]);
    }
  });
});
