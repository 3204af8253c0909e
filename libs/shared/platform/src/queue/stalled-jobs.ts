/**
 * BullMQ stalled-job settings of every processor (`@Processor(queue, { ...STALLED_JOB_SETTINGS, … })`,
 * docs/adr/0004). A job's lock lives `lockDuration` (10 s; renewed every 5 s while the job runs); each
 * worker checks every `stalledInterval` (5 s) for active jobs whose lock is gone and puts them back in
 * the wait list, so a job a killed worker was running runs again 10–20 s later instead of 30–60 s with
 * BullMQ's defaults. `maxStalledCount` 2: a job may be recovered twice before it fails for good (the
 * sweepers and the outbox reconciler then take over). Work that holds a lease of ours (webhook attempts)
 * is taken over sooner by `WorkerLeases`; the stalled job then finds it done and does nothing.
 */
export const STALLED_JOB_SETTINGS = { lockDuration: 10_000, stalledInterval: 5000, maxStalledCount: 2 } as const;
