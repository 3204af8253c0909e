/**
 * The seeded part of the fault suite: the leads captured and the fault schedule. The same seed gives
 * the same leads (names, emails, phones, idempotency keys, client addresses) and the same faults in
 * the same order at the same offsets; only the machine's timing varies from run to run.
 */

/** Seed used when `FAULT_SEED` is not set. */
export const DEFAULT_FAULT_SEED = 20261125;

/** Seeds run when neither `FAULT_SEEDS` nor `FAULT_SEED` is set: three, each its own service and plan. */
export const DEFAULT_FAULT_SEEDS = [DEFAULT_FAULT_SEED, 7, 424242];

/** A small deterministic PRNG (mulberry32): `next()` in [0, 1). */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max] (both included). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** A copy of `items` in a seeded order (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let index = copy.length - 1; index > 0; index--) {
      const other = Math.floor(this.next() * (index + 1));
      [copy[index], copy[other]] = [copy[other], copy[index]];
    }
    return copy;
  }

  /** `length` lowercase hex characters. */
  hex(length: number): string {
    let out = '';
    while (out.length < length) out += this.int(0, 15).toString(16);
    return out;
  }
}

/** One lead: the capture body, its Idempotency-Key and the client address it is sent from (X-Forwarded-For). */
export interface LeadSpec {
  index: number;
  email: string;
  idempotencyKey: string;
  forwardedFor: string;
  body: Record<string, unknown>;
}

/**
 * A fault, `afterMs` after the previous one ended (the first: after the captures started). Each hits the
 * service under load: `burst` more leads (kept out of the paced ones) are released at once, then
 * - `redis`: once jobs are pending in the queues (waiting, active or delayed: what losing Redis's data
 *   loses; at most 8 s after the burst), SIGKILL of the Redis server, restarted empty on the same port
 *   `downMs` later;
 * - `postgres`: `delayMs` after the burst (captures in flight, keys claimed), `pg_ctl restart -m <mode>`
 *   (`fast`: clean shutdown, sessions cut; `immediate`: the server is killed and recovers from its WAL);
 * - `worker`: `delayMs` after the burst (jobs active, deliveries leased), SIGKILL of the worker process
 *   (the `npm start` supervisor restarts it);
 * - `api`: `delayMs` after the burst (captures in flight), SIGKILL of one api process (restarted too);
 * - `receiver`: the webhook receiver answers 500 to everything for `downMs` (20 s); the next fault
 *   follows without waiting for it to end, so it overlaps the others.
 */
export type FaultSpec =
  | { kind: 'redis'; afterMs: number; burst: number; downMs: number }
  | { kind: 'postgres'; afterMs: number; burst: number; delayMs: number; mode: 'fast' | 'immediate' }
  | { kind: 'worker'; afterMs: number; burst: number; delayMs: number }
  | { kind: 'api'; afterMs: number; burst: number; delayMs: number }
  | { kind: 'receiver'; afterMs: number; burst: number; downMs: number };

/** Every kind of fault of a plan, once each. */
export const FAULT_KINDS = ['redis', 'postgres', 'worker', 'api', 'receiver'] as const;

export interface FaultPlan {
  seed: number;
  leads: LeadSpec[];
  faults: FaultSpec[];
  /** The leads not kept for the bursts start spread evenly over this window; retries come on top (ms). */
  captureWindowMs: number;
}

const FIRST_NAMES = ['Nadia', 'Étienne', 'Chloé', 'Mathis', 'Léa', 'Olivier', 'Camille', 'Félix', 'Zoé', 'Samuel', 'Maëlle', 'Gabriel'];
const LAST_NAMES = ['Tremblay', 'Gagnon', 'Roy', 'Côté', 'Bouchard', 'Gauthier', 'Morin', 'Lavoie', 'Fortin', 'Gagné', 'Ouellet', 'Pelletier'];
const SOURCES = ['Formulaire soumission', 'Page Facebook', 'Salon Habitat', 'Google Ads', null];
const AREA_CODES = ['514', '438', '450', '581', '819', '418'];

/**
 * Builds the plan of a run. Every lead is a new person: its own email and phone (unique in the run, so
 * capture never resolves it to another lead's contact), its own Idempotency-Key and its own client
 * address (the per-IP limit is 100 captures per minute). The five faults come in a seeded order, all
 * within about a minute: the first 3–6 s into the captures, each next one 1–3 s after the previous one
 * ended (the receiver's failure is not waited for); each after a burst of leads (a tenth to a fifth of
 * the leads before the Redis kill, 5–10 % before the others); Redis stays down 9–12 s.
 */
export function buildFaultPlan(seed: number, leadCount: number, captureWindowMs: number): FaultPlan {
  const random = new SeededRandom(seed);
  const area = random.pick(AREA_CODES);
  const exchange = random.int(302, 399);
  const runTag = random.hex(6);
  const leads: LeadSpec[] = [];
  for (let index = 0; index < leadCount; index++) {
    const firstName = random.pick(FIRST_NAMES);
    const email = `lead.${index}.${runTag}@faults.test`;
    const body: Record<string, unknown> = {
      email,
      phone: `(${area}) ${exchange}-${String(index).padStart(4, '0')}`,
      sms_consent: true,
      first_name: firstName,
    };
    if (random.next() < 0.6) body.last_name = random.pick(LAST_NAMES);
    const source = random.pick(SOURCES);
    if (source !== null) body.source_label = source;
    if (random.next() < 0.3) body.utm = { source: random.pick(['google', 'facebook', 'infolettre']), campaign: `printemps-${random.int(1, 9)}` };
    leads.push({
      index,
      email,
      idempotencyKey: `fault-${seed}-${index}-${random.hex(12)}`,
      forwardedFor: `10.${100 + (index >> 16)}.${(index >> 8) & 255}.${index & 255}`,
      body,
    });
  }
  const big = () => random.int(Math.ceil(leadCount / 10), Math.ceil(leadCount / 5));
  const small = () => random.int(Math.ceil(leadCount / 20), Math.ceil(leadCount / 10));
  const faults: FaultSpec[] = random.shuffle(FAULT_KINDS).map((kind, position): FaultSpec => {
    const afterMs = position === 0 ? random.int(3000, 6000) : random.int(1000, 3000);
    if (kind === 'redis') return { kind, afterMs, burst: big(), downMs: random.int(9000, 12_000) };
    if (kind === 'postgres') return { kind, afterMs, burst: small(), delayMs: random.int(100, 600), mode: random.pick(['fast', 'immediate'] as const) };
    if (kind === 'receiver') return { kind, afterMs, burst: small(), downMs: 20_000 };
    return { kind, afterMs, burst: small(), delayMs: random.int(300, 1500) };
  });
  return { seed, leads, faults, captureWindowMs };
}

/** `FAULT_SEEDS` (comma-separated integers), else `FAULT_SEED` alone, else {@link DEFAULT_FAULT_SEEDS}. */
export function faultSeedsFromEnv(raw = process.env.FAULT_SEEDS): number[] {
  if (raw === undefined || raw.trim() === '') return process.env.FAULT_SEED?.trim() ? [faultSeedFromEnv()] : DEFAULT_FAULT_SEEDS;
  return raw.split(',').map((part) => faultSeedFromEnv(part));
}

/** `FAULT_SEED` (an integer), else {@link DEFAULT_FAULT_SEED}. */
export function faultSeedFromEnv(raw = process.env.FAULT_SEED): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_FAULT_SEED;
  const seed = Number(raw);
  if (!Number.isSafeInteger(seed)) throw new Error(`FAULT_SEED must be an integer (got ${JSON.stringify(raw)})`);
  return seed;
}
