import { Command } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';

/**
 * Test mode (issue 15, item 4): deletes the (sandbox) account's quotes, their payments and its quote
 * number sequences (numbering starts again at `<year>-0001`) in the caller's transaction.
 */
export class ResetQuotesDataCommand extends Command<Record<string, number>> {
  constructor(readonly accountId: AccountId) {
    super();
  }
}
