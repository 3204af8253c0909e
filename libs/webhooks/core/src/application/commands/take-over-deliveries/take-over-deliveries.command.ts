import { Command } from '@nestjs/cqrs';

/** Lease takeover: the attempts the given dead workers (`platform.workers` ids) were making. Answers the delivery ids queued again. */
export class TakeOverDeliveriesCommand extends Command<string[]> {
  constructor(readonly deadWorkerIds: readonly string[]) {
    super();
  }
}
