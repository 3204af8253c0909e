import { randomUUID } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * Who this worker process is, for the leases it takes (docs/adr/0004): `id` a uuid made at start (a
 * restarted process is a new worker), `host` its machine and PID namespace (`<hostname>/<pid ns>`: two
 * workers with the same `host` see each other's pids), `pid`. A lease row names its holder by `id`;
 * `platform.workers` holds one row per live worker ({@link WorkerLeases}).
 */
export class WorkerIdentity {
  readonly id: string;
  readonly host: string;
  readonly pid: number;

  constructor(id: string = randomUUID(), host: string = currentHost(), pid: number = process.pid) {
    this.id = id;
    this.host = host;
    this.pid = pid;
  }
}

/** `<hostname>/<pid namespace>` (`/proc/self/ns/pid`, e.g. `pid:[4026531836]`); the hostname alone where /proc is not there. */
export function currentHost(): string {
  try {
    return `${hostname()}/${readlinkSync('/proc/self/ns/pid')}`;
  } catch {
    return hostname();
  }
}

/** Whether a process `pid` exists in this PID namespace (signal 0: EPERM means it exists but is not ours). */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
