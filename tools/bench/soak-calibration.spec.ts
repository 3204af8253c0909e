import {
  backlogGrew,
  CalibrationBisection,
  CalibrationOutcome,
  CalibrationRound,
  estimateSustainableRate,
  INITIAL_BISECTION,
  nextCalibrationRate,
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

describe('calibration bisection', () => {
  const grew = (target_rps: number, created_per_second = 100, delivered_per_second = 100): CalibrationOutcome => ({
    target_rps,
    backlog_grew: true,
    created_per_second,
    delivered_per_second,
  });
  const held = (target_rps: number): CalibrationOutcome => ({ target_rps, backlog_grew: false, created_per_second: 100, delivered_per_second: 100 });
  const after = (low: number | null, high: number | null, rounds: number, estimate: number | null = null): CalibrationBisection => ({ low, high, rounds, estimate });

  /**
   * Runs the whole procedure against a service that holds every rate up to `sustains` (req/s), creates
   * `created(rate)` deliveries per second and delivers `delivered(rate)` per second in a round that grows.
   */
  const calibrate = (first: number, sustains: number, created: (rate: number) => number, delivered: (rate: number) => number, maxRounds = 6) => {
    const rates: number[] = [];
    const rounds: CalibrationRound[] = [];
    let state = INITIAL_BISECTION;
    let rate: number | null = first;
    while (rate !== null) {
      const round = { target_rps: rate, backlog_grew: rate > sustains, created_per_second: created(rate), delivered_per_second: delivered(rate) };
      rates.push(rate);
      rounds.push(round as CalibrationRound);
      ({ next: rate, state } = nextCalibrationRate(state, round, { maxRounds, convergedRatio: 1.15 }));
    }
    return { rates, state, result: sustainableMaximum(rounds, state.estimate ?? (rates[rates.length - 1] as number)) };
  };

  it('first round that grew: the delivery-ratio estimate, but never more than half lower', () => {
    // the soak of 2026-11-25 05:50: the niced worker starved at 1,528 req/s, 50.04 delivered per 723.82 created a second:
    // the ratio alone says 105 req/s (what round 2 ran at); the bisection runs round 2 at half the rate
    expect(estimateSustainableRate(1528, 723.82, 50.04)).toBe(105);
    expect(nextCalibrationRate(INITIAL_BISECTION, grew(1528, 723.82, 50.04))).toEqual({ next: 764, state: after(null, 1528, 1, 764), stop: null });
    // a ratio estimate above half the rate is taken as it is: 750 × 500/560 = 669.6
    expect(nextCalibrationRate(INITIAL_BISECTION, grew(750, 560, 500)).next).toBe(669);
    // odd rates: half rounded up, so never below R / 2
    expect(nextCalibrationRate(INITIAL_BISECTION, grew(725, 725, 0)).next).toBe(363);
  });

  it('grown again with nothing held: halves at most again from the new rate', () => {
    expect(nextCalibrationRate(after(null, 724, 1, 362), grew(362, 362, 10))).toEqual({ next: 181, state: after(null, 362, 2, 181), stop: null });
  });

  it('held then grown bisects between the highest held and the lowest grown rate', () => {
    const held362 = nextCalibrationRate(after(null, 724, 1, 362), held(362));
    expect(held362).toEqual({ next: 543, state: after(362, 724, 2, 362), stop: null });
    const grew633 = nextCalibrationRate(after(543, 724, 3, 362), grew(633, 633, 1));
    expect(grew633).toEqual({ next: 588, state: after(543, 633, 4, 362), stop: null }); // the midpoint, not the ratio estimate
  });

  it('held: low is the highest held rate, high the lowest grown one', () => {
    expect(nextCalibrationRate(after(400, 600, 3), held(300)).state).toMatchObject({ low: 400, high: 600 });
    expect(nextCalibrationRate(after(400, 600, 3), grew(700)).state).toMatchObject({ low: 400, high: 600 });
  });

  it('stops when the held and grown rates are within 15 %', () => {
    expect(nextCalibrationRate(after(543, 633, 4), grew(588))).toEqual({ next: null, state: after(543, 588, 5), stop: 'converged' }); // 1.083
    expect(nextCalibrationRate(after(null, 460, 1), held(400))).toEqual({ next: null, state: after(400, 460, 2), stop: 'converged' }); // exactly 1.15
    expect(nextCalibrationRate(after(null, 461, 1), held(400)).next).toBe(430); // 1.1525
    expect(nextCalibrationRate(after(null, 2, 1), held(1))).toMatchObject({ next: null, stop: 'converged' }); // no integer rate in between
  });

  it('stops after a first round that held (nothing grew to narrow towards)', () => {
    expect(nextCalibrationRate(INITIAL_BISECTION, held(500))).toEqual({ next: null, state: after(500, null, 1), stop: 'held_first' });
  });

  it('stops at max rounds, keeping the estimate for the unverified answer', () => {
    expect(nextCalibrationRate(after(300, 600, 5), grew(450))).toEqual({ next: null, state: after(300, 450, 6), stop: 'max_rounds' });
    expect(nextCalibrationRate(after(null, 800, 3, 400), grew(400, 400, 300), { maxRounds: 4, convergedRatio: 1.15 })).toEqual({
      next: null,
      state: after(null, 400, 4, 300),
      stop: 'max_rounds',
    });
    expect(nextCalibrationRate(INITIAL_BISECTION, grew(1, 10, 0))).toMatchObject({ next: null, stop: 'no_lower_rate' });
  });

  it('sustainable = highest held: a starved first round no longer drags the answer down to its delivery ratio', () => {
    // a service that holds 560 req/s and creates 724 deliveries per 1,528 requests; the first round at 1,528
    // delivers 50/s (starved worker), later rounds that grow deliver 250/s
    const run = calibrate(1528, 560, (rate) => (rate * 724) / 1528, (rate) => (rate === 1528 ? 50 : 250));
    expect(run.rates).toEqual([1528, 764, 527, 645, 586]); // 764: half, not 105; 527: 764 × 250/362; then midpoints
    expect(run.state).toMatchObject({ low: 527, high: 586 }); // 586 / 527 = 1.11
    expect(run.result).toEqual({ sustainable_max_rps: 527, verified: true });
  });

  it('sustainable = the last estimate, unverified, when every round grew', () => {
    const run = calibrate(724, 10, (rate) => rate, () => 0, 4);
    expect(run.rates).toEqual([724, 362, 181, 91]);
    expect(run.result).toEqual({ sustainable_max_rps: 46, verified: false });
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
