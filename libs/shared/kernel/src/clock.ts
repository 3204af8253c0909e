/**
 * Time source port. Inject it instead of calling `new Date()` so tests can move time
 * (the legacy-host sunset, dedup windows, quota resets). All instants are UTC `Date`s.
 */
export abstract class Clock {
  abstract now(): Date;
}

/** Wall clock used in production. */
export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}

/** Test clock: starts at `start` (default: the real time) and moves only when told. */
export class FixedClock extends Clock {
  private current: Date;

  constructor(start: Date = new Date()) {
    super();
    this.current = new Date(start.getTime());
  }

  now(): Date {
    return new Date(this.current.getTime());
  }

  set(instant: Date): void {
    this.current = new Date(instant.getTime());
  }

  advance(milliseconds: number): void {
    this.current = new Date(this.current.getTime() + milliseconds);
  }
}
