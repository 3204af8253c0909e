import { Command } from '@nestjs/cqrs';

/** One pass of the safety net: queue again the deliveries whose job was lost. Answers their ids. */
export class RescheduleLostDeliveriesCommand extends Command<string[]> {
  constructor(readonly limit = 500) {
    super();
  }
}
