import { Query } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';
import type { SenderView } from './sender';

/** The account's default sender, or null (`POST /v1/emails/send` then answers 400 `no_sender_configured`). */
export class GetDefaultSenderQuery extends Query<SenderView | null> {
  constructor(readonly accountId: AccountId) {
    super();
  }
}

/** Every sender of the account, the default one first. */
export class ListSendersQuery extends Query<SenderView[]> {
  constructor(readonly accountId: AccountId) {
    super();
  }
}
