import { Command } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';

/**
 * The account's unsubscribe list: an address on it receives no more marketing or quote emails (quote
 * send answers 409 `recipient_unsubscribed`). `unsubscribed: false` takes it off. Idempotent; for
 * messaging's unsubscribe link and the dashboard. 400 `validation_error` (`email` `invalid_format`).
 */
export class SetEmailUnsubscribedCommand extends Command<{ email: string; unsubscribed: boolean }> {
  constructor(
    readonly accountId: AccountId,
    readonly email: string,
    readonly unsubscribed: boolean,
  ) {
    super();
  }
}
