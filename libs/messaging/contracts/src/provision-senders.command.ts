import { Command } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';
import type { ProvisionedSenders, SenderSpec } from './sender';

/**
 * Creates an account's senders (operator blueprint), inside the caller's unit of work. Rules: a valid
 * email (stored lowercase), unique in the account; a name of 1 to 200 characters; exactly one default
 * sender per account (the first one when none is flagged). Any breach throws 400 `validation_error`
 * with `details` as `{ field, reason }` (`senders[1].email`) and nothing is written.
 */
export class ProvisionSendersCommand extends Command<ProvisionedSenders> {
  constructor(
    readonly accountId: AccountId,
    readonly senders: readonly SenderSpec[],
  ) {
    super();
  }
}
