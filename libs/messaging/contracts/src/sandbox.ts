import { Command } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';

/**
 * Test mode (issue 15, item 4): deletes the (sandbox) account's outgoing emails (and their status
 * history), email threads and chat conversations (and messages) in the caller's transaction; keeps
 * senders. Answers rows deleted per table.
 */
export class ResetMessagingDataCommand extends Command<Record<string, number>> {
  constructor(readonly accountId: AccountId) {
    super();
  }
}
