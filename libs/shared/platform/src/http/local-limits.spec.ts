import fc from 'fast-check';
import { AppConfig, ConfigError } from '../config/app-config';
import { LocalLimits, perProcessLimit } from './local-limits';

const configs = new Map<number, AppConfig>();
/** An AppConfig with API_PROCESSES set (one per count: reading the environment is not free). */
const config = (apiProcesses: number): AppConfig => {
  if (!configs.has(apiProcesses)) configs.set(apiProcesses, new AppConfig({ API_PROCESSES: String(apiProcesses) }));
  return configs.get(apiProcesses) as AppConfig;
};

describe('the Redis-down fallback splits every limit between the api processes', () => {
  describe('perProcessLimit(limit, processes)', () => {
    it('never lets the processes together admit more than the limit when there are no more processes than units', () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 1, max: 1024 }), (limit, processes) => {
          fc.pre(processes <= limit);
          const share = perProcessLimit(limit, processes);
          expect(processes * share).toBeLessThanOrEqual(limit);
          expect(processes * (share + 1)).toBeGreaterThan(limit); // floor: the largest share that holds
        }),
      );
    });

    it('keeps at least 1 per process and never more than the limit, whatever the counts', () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 1, max: 1024 }), (limit, processes) => {
          const share = perProcessLimit(limit, processes);
          expect(share).toBeGreaterThanOrEqual(1);
          expect(share).toBeLessThanOrEqual(limit);
          expect(processes * share).toBeLessThanOrEqual(Math.max(limit, processes));
        }),
      );
    });

    it('the limits of the service with 2 processes: 30 wrong keys → 15 each, 10 wrong tokens → 5, 100 per IP → 50, 3 per hour → 1', () => {
      expect([30, 10, 100, 120, 60, 3].map((limit) => perProcessLimit(limit, 2))).toEqual([15, 5, 50, 60, 30, 1]);
      expect(perProcessLimit(10, 1)).toBe(10);
      expect(perProcessLimit(10, 3)).toBe(3);
    });

    it('refuses a count that is not a positive integer (RangeError)', () => {
      for (const [limit, processes] of [[0, 1], [1, 0], [1.5, 1], [10, 2.5], [Number.NaN, 1]]) {
        expect(() => perProcessLimit(limit as number, processes as number)).toThrow(RangeError);
      }
    });
  });

  describe('LocalLimits', () => {
    it('N processes counting the same subject in turn admit at most the limit in all (property)', () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 16 }), (limit, processes) => {
          fc.pre(processes <= limit);
          const cluster = Array.from({ length: processes }, () => new LocalLimits(config(processes)));
          let admitted = 0;
          for (let attempt = 0; attempt < limit * 2; attempt += 1) {
            if ((cluster[attempt % processes] as LocalLimits).consume('auth_failures:203.0.113.9', limit, 600, 0).allowed) admitted += 1;
          }
          expect(admitted).toBeLessThanOrEqual(limit);
          expect(admitted).toBe(processes * perProcessLimit(limit, processes));
        }),
      );
    });

    it('reports its share as the limit, and a refusal consumes nothing', () => {
      const local = new LocalLimits(config(2));
      const first = local.consume('key_hour:3600:k', 5, 3600, 0);
      expect(first).toEqual({ allowed: true, report: { limit: 2, remaining: 1, resetSeconds: 3600, windowSeconds: 3600 } });
      expect(local.consume('key_hour:3600:k', 5, 3600, 1000).allowed).toBe(true);
      expect(local.consume('key_hour:3600:k', 5, 3600, 2000)).toMatchObject({ allowed: false, report: { limit: 2, remaining: 0, resetSeconds: 3598 } });
      expect(local.peek('key_hour:3600:k', 2000)).toEqual({ count: 2, resetSeconds: 3598 });
      expect(local.consume('key_hour:3600:k', 5, 3600, 3_600_000).allowed).toBe(true); // a new window
    });

    it('consumeAll: per-IP, per-key minute and hourly quota each cut to the share, in order, stopping at the first refusal', () => {
      const local = new LocalLimits(config(2));
      const checks = [
        { name: 'ip_capture', subject: '198.51.100.1', points: 4, windowSeconds: 60 },
        { name: 'key_hour', subject: 'key-1', points: 1000, windowSeconds: 3600 },
      ];
      expect(local.consumeAll(checks, 0).map((outcome) => outcome.allowed)).toEqual([true, true]);
      expect(local.consumeAll(checks, 0).map((outcome) => outcome.allowed)).toEqual([true, true]);
      const refused = local.consumeAll(checks, 0);
      expect(refused.map((outcome) => outcome.allowed)).toEqual([false]);
      expect(local.peek('key_hour:3600:key-1', 0).count).toBe(2); // the quota after the refused check was not touched
    });

    it('an explicit process count overrides API_PROCESSES (the metrics token, shared with the worker)', () => {
      const local = new LocalLimits(config(2));
      expect(local.consume('metrics_failures:ip', 10, 600, 0, 3).report.limit).toBe(3);
    });
  });

  describe('API_PROCESSES in AppConfig', () => {
    it('defaults to 1 (an app run alone), reads the count npm start passes, refuses anything but 1..1024', () => {
      expect(new AppConfig({}).apiProcesses).toBe(1);
      expect(config(4).apiProcesses).toBe(4);
      for (const bad of ['0', '-1', '1.5', 'two', '1025', '']) expect(() => new AppConfig({ API_PROCESSES: bad })).toThrow(ConfigError);
    });
  });
});
