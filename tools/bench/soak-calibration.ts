/**
 * The pure parts of `npm run bench:soak` (tools/bench/soak.ts; tools/bench/README.md › Soak): the webhook
 * backlog, when a backlog "grows", the estimate of the sustainable rate from one calibration round, the
 * choice of the next calibration rate (a bisection between the highest rate that held and the lowest that
 * grew), and the soak's pass/fail conditions. No I/O here, so tools/bench/soak-calibration.spec.ts tests it as a unit.
 */

/** One reading of the webhook side of the service during calibration or the soak. */
export interface WebhookReading {
  /** Seconds since the start of the phase (calibration round or soak). */
  at_seconds: number;
  /** Outbox rows written of the subscription's event types (each one delivery for one subscription). */
  events_written: number;
  /** Deliveries the receiver acknowledged (`webhooks.deliveries` rows `succeeded`). */
  deliveries_succeeded: number;
}

/** Deliveries owed and not yet made: events written of the subscribed types − deliveries succeeded (never negative). */
export function webhookBacklog(reading: WebhookReading): number {
  return Math.max(0, reading.events_written - reading.deliveries_succeeded);
}

/** How much a backlog may rise over a phase and still count as "not growing". */
export interface GrowthTolerance {
  /** Share of the work created during the phase (0.02: 2 %). */
  fraction: number;
  /**
   * Seconds of production in flight (2): work moves through the relay, the fan-out and the delivery
   * queue in batches, so even a service that keeps up shows a backlog pulsing between zero and about a
   * second or two of production; a single reading may fall on a peak.
   */
  inFlightSeconds: number;
}

export const DEFAULT_GROWTH_TOLERANCE: GrowthTolerance = { fraction: 0.02, inFlightSeconds: 2 };

/**
 * True when a backlog grew: `end > reference + fraction × created + inFlightSeconds × createdPerSecond`,
 * where `reference` is the backlog once the load is established (15 s into the phase: the first seconds
 * always fill the queues), `created` the work created during the phase (events written, outbox rows
 * written) and `createdPerSecond` its rate.
 */
export function backlogGrew(
  reference: number,
  end: number,
  created: number,
  createdPerSecond: number,
  tolerance: GrowthTolerance = DEFAULT_GROWTH_TOLERANCE,
): boolean {
  return end > reference + tolerance.fraction * Math.max(0, created) + tolerance.inFlightSeconds * Math.max(0, createdPerSecond);
}

/** What one calibration round measured (a row of the results file's `calibration`). */
export interface CalibrationRound {
  round: number;
  /** Requests per second asked of autocannon (`overallRate`). */
  target_rps: number;
  /** Requests per second answered. */
  achieved_rps: number;
  duration_seconds: number;
  status_5xx: number;
  /** Seconds into the round of the reference reading (15 s, or half the round when shorter than 30 s). */
  reference_at_seconds: number;
  backlog_at_reference: number;
  backlog_at_end: number;
  /** Events written of the subscribed types during the whole round. */
  events_written: number;
  /** Deliveries created per second (events written of the subscribed types) from the reference to the end. */
  created_per_second: number;
  /** Deliveries succeeded per second over the same window. */
  delivered_per_second: number;
  backlog_grew: boolean;
  /** Seconds waited afterwards for the backlog to drain (null: no wait, the last phase). */
  drain_seconds: number | null;
  /** The bisection after this round ({@link nextCalibrationRate}); absent from a bare {@link summariseRound}. */
  bisection?: CalibrationStep;
}

/** Seconds into a phase of `durationSeconds` whose reading is the growth reference: 15, or half a phase shorter than 30 s. */
export function referenceOffsetSeconds(durationSeconds: number): number {
  return Math.min(15, durationSeconds / 2);
}

/** The first reading at or after `offsetSeconds` (else the last one); throws on an empty list. */
export function readingAt<T extends { at_seconds: number }>(readings: readonly T[], offsetSeconds: number): T {
  if (readings.length === 0) throw new Error('no readings');
  return readings.find((reading) => reading.at_seconds >= offsetSeconds) ?? (readings[readings.length - 1] as T);
}

/**
 * Summarises one round run at `targetRps` for `durationSeconds` from its readings (the first taken at the
 * start of the load, the last at its end): rates over the window reference → end, backlog growth with
 * `tolerance` against the events written during the whole round and their rate.
 */
export function summariseRound(
  round: number,
  targetRps: number,
  achievedRps: number,
  status5xx: number,
  durationSeconds: number,
  readings: readonly WebhookReading[],
  tolerance: GrowthTolerance = DEFAULT_GROWTH_TOLERANCE,
): CalibrationRound {
  const first = readingAt(readings, 0);
  const end = readings[readings.length - 1] as WebhookReading;
  const reference = readingAt(readings, referenceOffsetSeconds(durationSeconds));
  const window = Math.max(1, end.at_seconds - reference.at_seconds);
  const written = end.events_written - first.events_written;
  const backlogAtReference = webhookBacklog(reference);
  const backlogAtEnd = webhookBacklog(end);
  return {
    round,
    target_rps: targetRps,
    achieved_rps: Math.round(achievedRps),
    duration_seconds: durationSeconds,
    status_5xx: status5xx,
    reference_at_seconds: reference.at_seconds,
    backlog_at_reference: backlogAtReference,
    backlog_at_end: backlogAtEnd,
    events_written: written,
    created_per_second: round2((end.events_written - reference.events_written) / window),
    delivered_per_second: round2((end.deliveries_succeeded - reference.deliveries_succeeded) / window),
    backlog_grew: backlogGrew(backlogAtReference, backlogAtEnd, written, written / Math.max(1, end.at_seconds - first.at_seconds), tolerance),
    drain_seconds: null,
  };
}

/**
 * Estimated sustainable rate after a round at `rate` whose backlog grew: `rate × delivered / created` per
 * second (the share of the produced deliveries the service made), floored, at most 95 % of `rate` (so a
 * round that barely grew still moves down) and at least 1. With nothing created, `rate` itself.
 */
export function estimateSustainableRate(rate: number, createdPerSecond: number, deliveredPerSecond: number): number {
  if (!(createdPerSecond > 0)) return rate;
  const ratio = Math.max(0, deliveredPerSecond) / createdPerSecond;
  return Math.max(1, Math.floor(Math.min(rate * ratio, rate * 0.95)));
}

/** The outcome of calibration: the highest round rate whose backlog did not grow, else the last estimate, unverified. */
export interface SustainableMaximum {
  sustainable_max_rps: number;
  /** False when every round grew: the figure is the estimate after the last round, not a rate seen to hold. */
  verified: boolean;
}

/**
 * {@link SustainableMaximum} of the rounds run; `lastEstimate` (req/s; in the soak the bisection's
 * `estimate`) is used only when every round grew.
 */
export function sustainableMaximum(rounds: readonly CalibrationRound[], lastEstimate: number): SustainableMaximum {
  const held = rounds.filter((round) => !round.backlog_grew).map((round) => round.target_rps);
  return held.length > 0 ? { sustainable_max_rps: Math.max(...held), verified: true } : { sustainable_max_rps: lastEstimate, verified: false };
}

/**
 * Where the calibration's bisection stands between rounds (rates in req/s, integers as autocannon's
 * `overallRate` takes them). The sustainable maximum lies in [low, high).
 */
export interface CalibrationBisection {
  /** Highest round rate whose backlog held (req/s); null until a round held. */
  low: number | null;
  /** Lowest round rate whose backlog grew (req/s); null until a round grew. */
  high: number | null;
  /** Rounds run so far. */
  rounds: number;
  /**
   * The rate proposed after the last round that grew with nothing held yet, max(delivery-ratio estimate,
   * half the round's rate) (req/s); null until then. The unverified answer when every round grew.
   */
  estimate: number | null;
}

/** Before the first round: nothing held, nothing grew. */
export const INITIAL_BISECTION: CalibrationBisection = Object.freeze({ low: null, high: null, rounds: 0, estimate: null });

/** When the bisection stops. */
export interface BisectionLimits {
  /** Most rounds, the first included (`SOAK_CALIBRATION_ROUNDS`, default 6). */
  maxRounds: number;
  /** Stop once high / low is at most this (1.15: the two rates within 15 % of each other). */
  convergedRatio: number;
}

export const DEFAULT_BISECTION_LIMITS: BisectionLimits = { maxRounds: 6, convergedRatio: 1.15 };

/**
 * Why the bisection stopped after a round (null: it goes on):
 * - `held_first`: the round held and no rate has grown, so there is nothing above to narrow towards;
 * - `converged`: high / low ≤ `convergedRatio`, or no integer rate lies strictly between them;
 * - `max_rounds`: `maxRounds` rounds run;
 * - `no_lower_rate`: a round at 1 req/s grew with nothing held.
 */
export type CalibrationStop = 'held_first' | 'converged' | 'max_rounds' | 'no_lower_rate';

/** The bisection after one round, as written per round in the results file (rates in req/s). */
export interface CalibrationStep {
  low: number | null;
  high: number | null;
  /** The next round's rate (req/s), null when calibration stops. */
  next_rps: number | null;
  stop: CalibrationStop | null;
}

/** What {@link nextCalibrationRate} reads of a round. */
export type CalibrationOutcome = Pick<CalibrationRound, 'target_rps' | 'backlog_grew' | 'created_per_second' | 'delivered_per_second'>;

/**
 * The rate of the next calibration round (req/s), or null to stop, and the bisection after `round`:
 * - a round that **held**: low = max(low, R); then, if a grown rate `high` is known and high / low >
 *   `convergedRatio`, the midpoint ⌊(low + high) / 2⌋, else stop;
 * - a round that **grew**: high = min(high, R); then, if a held rate `low` is known, the midpoint (or stop
 *   when high / low ≤ `convergedRatio`), else max({@link estimateSustainableRate}, ⌈R / 2⌉): never more
 *   than half lower at once, because a saturating round can starve a lower-priority worker and make the
 *   delivery ratio (and so the estimate) far smaller than what the service sustains;
 * - stop in any case after `maxRounds` rounds.
 * The sustainable maximum is then low (verified), else `estimate` (unverified): see {@link sustainableMaximum}.
 */
export function nextCalibrationRate(
  state: CalibrationBisection,
  round: CalibrationOutcome,
  limits: BisectionLimits = DEFAULT_BISECTION_LIMITS,
): { next: number | null; state: CalibrationBisection; stop: CalibrationStop | null } {
  const rate = round.target_rps;
  const rounds = state.rounds + 1;
  const low = round.backlog_grew ? state.low : Math.max(state.low ?? 0, rate);
  const high = round.backlog_grew ? Math.min(state.high ?? Infinity, rate) : state.high;
  let estimate = state.estimate;
  let next: number | null;
  let stop: CalibrationStop | null = null;
  if (low !== null && high !== null) {
    const midpoint = Math.floor((low + high) / 2);
    if (high / low <= limits.convergedRatio || midpoint <= low) stop = 'converged';
    next = midpoint;
  } else if (low !== null) {
    stop = 'held_first';
    next = null;
  } else {
    estimate = Math.max(estimateSustainableRate(rate, round.created_per_second, round.delivered_per_second), Math.ceil(rate / 2));
    if (estimate >= rate) stop = 'no_lower_rate';
    next = estimate;
  }
  if (stop === null && rounds >= limits.maxRounds) stop = 'max_rounds';
  return { next: stop === null ? next : null, state: { low, high, rounds, estimate }, stop };
}

/** The soak's conditions (issue 11, item 6), each with its figures. */
export interface SoakConditions {
  zero_5xx: boolean;
  /** Per process label: RSS after warm-up → end (KiB), growth ratio, and growth < 10 %. */
  rss_flat: boolean;
  rss_per_process: Record<string, { start_kib: number | null; end_kib: number | null; growth: number | null; ok: boolean }>;
  redis_flat: boolean;
  outbox_backlog_not_growing: boolean;
  webhook_backlog_not_growing: boolean;
}

/** RSS growth limit per process after warm-up (10 %). */
export const RSS_GROWTH_LIMIT = 0.1;
/** Redis `used_memory` growth allowed: under 10 % or under 10 MB (either). */
export const REDIS_GROWTH_LIMIT = 0.1;
export const REDIS_GROWTH_LIMIT_BYTES = 10 * 1024 * 1024;

/** True when every process present at both instants grew its RSS by less than {@link RSS_GROWTH_LIMIT}; a process missing at either instant fails (restarted). */
export function rssPerProcess(start: Record<string, number>, end: Record<string, number>): SoakConditions['rss_per_process'] {
  const labels = [...new Set([...Object.keys(start), ...Object.keys(end)])];
  return Object.fromEntries(
    labels.map((label) => {
      const before = start[label] ?? null;
      const after = end[label] ?? null;
      const growth = before && after !== null ? round4((after - before) / before) : null;
      return [label, { start_kib: before, end_kib: after, growth, ok: growth !== null && growth < RSS_GROWTH_LIMIT }];
    }),
  );
}

/** True when Redis `used_memory` grew by less than 10 % or by less than 10 MB between the two readings (bytes). */
export function redisFlat(startBytes: number, endBytes: number): boolean {
  const growth = endBytes - startBytes;
  return growth < REDIS_GROWTH_LIMIT_BYTES || (startBytes > 0 && growth / startBytes < REDIS_GROWTH_LIMIT);
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
