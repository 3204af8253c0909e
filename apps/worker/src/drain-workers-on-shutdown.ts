import { WorkerHost } from '@nestjs/bullmq';
import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { Worker } from 'bullmq';

/** How long active jobs may run on after a shutdown signal before their workers are force-closed. */
export const DRAIN_GRACE_MS = 20_000;

/**
 * Graceful shutdown of the worker's BullMQ processors. Nest runs the hooks in three rounds:
 * `onModuleDestroy` (the outbox relay stops polling and finishes its pass), `beforeApplicationShutdown`
 * (here: every worker stops taking jobs and the active ones finish, up to `DRAIN_GRACE_MS`), then
 * `onApplicationShutdown` (queues, Redis and the PostgreSQL pool close). Draining in the middle round
 * guarantees a running job still has its database and Redis connections.
 */
@Injectable()
export class DrainWorkersOnShutdown implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Shutdown');

  constructor(private readonly discovery: DiscoveryService) {}

  async beforeApplicationShutdown(signal?: string): Promise<void> {
    const workers = this.workers();
    this.logger.log({ signal: signal ?? null, workers: workers.length }, 'Draining job processors');
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const graceful = Promise.all(workers.map((worker) => worker.close())).then(() => true);
    const expired = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), DRAIN_GRACE_MS)));
    const drained = await Promise.race([graceful, expired]).finally(() => clearTimeout(timer));
    if (!drained) {
      this.logger.warn({ graceMs: DRAIN_GRACE_MS }, 'Jobs still active after the grace period; force-closing workers');
      await Promise.all(workers.map((worker) => worker.close(true).catch(() => undefined)));
    }
    this.logger.log({ ms: Date.now() - started }, 'Job processors drained');
  }

  private workers(): Worker[] {
    const workers: Worker[] = [];
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.isDependencyTreeStatic() ? wrapper.instance : undefined;
      if (!(instance instanceof WorkerHost)) continue;
      try {
        workers.push(instance.worker);
      } catch {
        // processor whose worker was never created (initialisation failed): nothing to drain
      }
    }
    return workers;
  }
}
