import { Command } from '@nestjs/cqrs';

/** Worker: hands stale executions (expired lease, overdue wait, forgotten pending) back to the queue. */
export class SweepExecutionsCommand extends Command<{ requeued: number }> {}
