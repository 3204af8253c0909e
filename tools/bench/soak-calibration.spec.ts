import {
  backlogGrew,
  CalibrationRound,
  estimateSustainableRate,
  readingAt,
  redisFlat,
  referenceOffsetSeconds,
  rssPerProcess,
  summariseRound,
  sustainableMaximum,
  webhookBacklog,
  WebhookReading,
} from './soak-calibration';

const reading = (at_seconds: number, events_written: number, deliveries_succeeded: number): WebhookReading => ({ at_seconds, events_written, deliveries_succeeded });

describe('webhook backlog (npm run bench:soak)', () => {
  it('is the events written of the subscribed types minus the deliveries succeeded, never negative', () => {
    expect(webhookBacklog(reading(0, 1_000, 940))).toBe(60);
    expect(webhookBacklog(reading(0, 10, 12))).toBe(0);
  });
});

describe('backlog growth tolerance', () => {
  it('holds when the end is at most the reference plus 2 % of the work created plus 2 s of it in flight', () => {
    expect(backlogGrew(100, 500, 10_000, 100)).toBe(false); // 100 + 200 + 200
    expect(backlogGrew(100, 501, 10_000, 100)).toBe(true);
  });

  it('holds when the backlog shrank; with nothing created any rise is growth', () => {
    expect(backlogGrew(500, 20, 0, 0)).toBe(false);
    expect(backlogGrew(0, 5, 0, 0)).toBe(true);
  });

  it('takes another tolerance when given', () => {
    expect(backlogGrew(0, 300, 10_000, 100, { fraction: 0.02, inFlightSeconds: 0 })).toBe(true);
    expect(backlogGrew(0, 300, 10_000, 100, { fraction: 0.03, inFlightSeconds: 0 })).toBe(false);
  });
});

describe('sustainable rate estimate', () => {
  it('scales the round rate by deliveries made per deliveries created', () => {
    expect(estimateSustainableRate(750, 560, 100)).toBe(133); // 750 × 100/560 = 133.9
  });

  it('moves at least 5 % down after a round that barely grew, never below 1', () => {
    expect(estimateSustainableRate(100, 100, 99.5)).toBe(95);
    expect(estimateSustainableRate(10, 50, 0)).toBe(1);
  });

  it('keeps the rate when the round created nothing to deliver', () => {
    expect(estimateSustainableRate(300, 0, 0)).toBe(300);
  });
});

describe('calibration round summary', () => {
  it('measures the rates from the 15 s reading to the end and the growth against the whole round', () => {
    const readings = [reading(0, 0, 0), reading(5, 500, 100), reading(15, 1_500, 300), reading(30, 3_000, 600), reading(60, 6_000, 1_200)];
    const round = summariseRound(1, 200, 198.6, 0, 60, readings);
    expect(round).toMatchObject({
      round: 1,
      target_rps: 200,
      achieved_rps: 199,
      reference_at_seconds: 15,
      backlog_at_reference: 1_200,
      backlog_at_end: 4_800,
      events_written: 6_000,
      created_per_second: 100,
      delivered_per_second: 20,
      backlog_grew: true,
      drain_seconds: null,
    });
    expect(estimateSustainableRate(round.target_rps, round.created_per_second, round.delivered_per_second)).toBe(40);
  });

  it('holds when delivery keeps up (backlog within 2 % of the events plus 2 s of them in flight)', () => {
    const readings = [reading(0, 0, 0), reading(15, 1_500, 1_400), reading(60, 6_000, 5_580)];
    const round = summariseRound(2, 40, 40, 0, 60, readings);
    expect([round.backlog_at_reference, round.backlog_at_end, round.backlog_grew]).toEqual([100, 420, false]); // 100 + 2 % × 6,000 + 2 s × 100/s
    expect(summariseRound(2, 40, 40, 0, 60, [...readings.slice(0, 2), reading(60, 6_000, 5_579)]).backlog_grew).toBe(true);
  });

  it('takes half a round shorter than 30 s as the reference instant', () => {
    expect(referenceOffsetSeconds(20)).toBe(10);
    expect(referenceOffsetSeconds(60)).toBe(15);
    expect(readingAt([reading(0, 0, 0), reading(5, 0, 0), reading(10, 0, 0)], 7).at_seconds).toBe(10);
    expect(readingAt([reading(0, 0, 0)], 15).at_seconds).toBe(0);
  });
});

describe('sustainable maximum', () => {
  const round = (target_rps: number, backlog_grew: boolean) => ({ target_rps, backlog_grew }) as CalibrationRound;

  it('is the highest round rate whose backlog did not grow', () => {
    expect(sustainableMaximum([round(750, true), round(130, false)], 130)).toEqual({ sustainable_max_rps: 130, verified: true });
    expect(sustainableMaximum([round(750, true), round(140, false), round(120, false)], 120)).toEqual({ sustainable_max_rps: 140, verified: true });
  });

  it('falls back to the last estimate, unverified, when every round grew', () => {
    expect(sustainableMaximum([round(750, true), round(130, true)], 110)).toEqual({ sustainable_max_rps: 110, verified: false });
  });
});

describe('soak conditions', () => {
  it('RSS: each process grows less than 10 % after warm-up; a process missing at either instant fails', () => {
    const rss = rssPerProcess({ 'api:1': 300_000, 'worker:3': 400_000, 'api:2': 300_000 }, { 'api:1': 329_000, 'worker:3': 500_000, 'api:9': 300_000 });
    expect(rss['api:1']).toEqual({ start_kib: 300_000, end_kib: 329_000, growth: 0.0967, ok: true });
    expect(rss['worker:3']?.ok).toBe(false);
    expect(rss['api:2']).toEqual({ start_kib: 300_000, end_kib: null, growth: null, ok: false });
    expect(rss['api:9']?.ok).toBe(false);
  });

  it('Redis: flat when it grew by less than 10 % or less than 10 MB', () => {
    const mb = 1024 * 1024;
    expect(redisFlat(93 * mb, 206 * mb)).toBe(false);
    expect(redisFlat(200 * mb, 215 * mb)).toBe(true); // 7.5 %
    expect(redisFlat(50 * mb, 59 * mb)).toBe(true); // 9 MB
    expect(redisFlat(50 * mb, 61 * mb)).toBe(false); // 22 %, 11 MB
  });
});
