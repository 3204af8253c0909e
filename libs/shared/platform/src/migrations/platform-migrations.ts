import { PlatformInit1767000000000 } from './1767000000000-platform-init';
import { IdempotencyLease1796000000000 } from './1796000000000-idempotency-lease';
import { EventInbox1797000000000 } from './1797000000000-event-inbox';
import { OutboxRequestId1798120000000 } from './1798120000000-outbox-request-id';
import { WorkerLeases1799600000000 } from './1799600000000-worker-leases';
import { PlatformKeysByAccount1800000000000 } from './1800000000000-platform-keys-by-account';
import { OutboxPartitions1800000002000 } from './1800000002000-outbox-partitions';

/** Migrations of the `platform` schema, in order. */
export const platformMigrations = [PlatformInit1767000000000, IdempotencyLease1796000000000, EventInbox1797000000000, OutboxRequestId1798120000000, WorkerLeases1799600000000, PlatformKeysByAccount1800000000000, OutboxPartitions1800000002000];
