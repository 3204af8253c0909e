import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';

/** 201 body data of `POST /v1/emails/send`. */
export interface SentEmailView {
  id: string;
  status: 'queued';
  /** Lowercase. */
  to: string;
  /** As queued: variables filled, `[TEST] ` prefixed in test mode. */
  subject: string;
  from: { email: string; name: string | null };
  type: 'transactional';
  priority: 1;
  test: boolean;
  /** The recipient's email thread; null in test mode (no history). */
  thread_id: string | null;
  /** The recipient's contact when one holds the address; null in test mode. */
  contact_id: string | null;
  created_at: string;
}

/**
 * `POST /v1/emails/send` (public-api-v1 › Endpoints › Emails): a transactional email (priority 1)
 * from the account's default sender. `html` is sanitised by the outgoing-email path.
 */
export class SendEmailCommand extends Command<SentEmailView> {
  constructor(
    readonly accountId: AccountId,
    readonly email: { to: string; subject: string; html: string; test: boolean },
    /** Who sends (the API key): the actor of the contact's timeline entry. */
    readonly actor: Actor,
  ) {
    super();
  }
}
