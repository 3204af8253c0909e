import { DomainError } from '@leadflow/shared-kernel';
import { AppConfig } from '../../config/app-config';
import { LocalLimits } from '../local-limits';
import { RateLimits } from '../rate-limits';
import { Credential, FAILED_ATTEMPT_LIMITS, FailedAttempts } from './failed-attempts';

/** RateLimits while Redis is down: every call rejects at once, as the real one does when not connected. */
const redisDown = {
  consume: () => Promise.reject(new Error('Redis connection end')),
  consumed: () => Promise.reject(new Error('Redis connection end')),
} as unknown as RateLimits;

function processOf(env: Record<string, string>): FailedAttempts {
  const config = new AppConfig(env);
  return new FailedAttempts(redisDown, new LocalLimits(config), config);
}

/** Wrong attempts of one address sent to the processes in turn until the first 429; returns how many were admitted (401). */
async function admittedInTurn(processes: FailedAttempts[], credential: Exclude<Credential, 'api_key'>): Promise<number> {
  let admitted = 0;
  for (let attempt = 0; attempt < 100; attempt += 1) {
    try {
      expect(await (processes[attempt % processes.length] as FailedAttempts).checkSecret(credential, '203.0.113.60', false)).toBe(false);
      admitted += 1;
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ code: 'rate_limit_exceeded', details: { limit_type: 'brute_force', retry_after_seconds: 600 } });
      return admitted;
    }
  }
  return admitted;
}

describe('FailedAttempts while Redis is down: every credential limit split between the processes that check it', () => {
  it('the operator token: 2 api processes admit 5 wrong tokens each, 10 in all', async () => {
    const cluster = [processOf({ API_PROCESSES: '2' }), processOf({ API_PROCESSES: '2' })];
    expect(await admittedInTurn(cluster, 'admin_token')).toBe(FAILED_ATTEMPT_LIMITS.admin_token);
  });

  it('the metrics token, also checked by the worker when WORKER_METRICS_PORT is set: 2 api processes and the worker admit 3 each, 9 of 10', async () => {
    const env = { API_PROCESSES: '2', WORKER_METRICS_PORT: '9464' };
    const cluster = [processOf(env), processOf(env), processOf(env)];
    expect(cluster[0]?.processesChecking('metrics_token')).toBe(3);
    expect(cluster[0]?.processesChecking('admin_token')).toBe(2);
    const admitted = await admittedInTurn(cluster, 'metrics_token');
    expect(admitted).toBeLessThanOrEqual(FAILED_ATTEMPT_LIMITS.metrics_token);
    expect(admitted).toBe(9);
  });

  it('past the share, the right secret is refused too; a process run alone keeps the whole limit', async () => {
    const alone = processOf({});
    for (let attempt = 0; attempt < 10; attempt += 1) expect(await alone.checkSecret('admin_token', '203.0.113.61', false)).toBe(false);
    await expect(alone.checkSecret('admin_token', '203.0.113.61', true)).rejects.toMatchObject({ code: 'rate_limit_exceeded' });
    expect(await alone.checkSecret('admin_token', '203.0.113.62', true)).toBe(true);
  });

  it('wrong API keys: recordFailure allows 15 per process of 2, then refuses', async () => {
    const one = processOf({ API_PROCESSES: '2' });
    const outcomes = [];
    for (let attempt = 0; attempt < 16; attempt += 1) outcomes.push((await one.recordFailure('api_key', '203.0.113.63')).allowed);
    expect(outcomes.filter(Boolean)).toHaveLength(15);
    expect(outcomes[15]).toBe(false);
  });
});
