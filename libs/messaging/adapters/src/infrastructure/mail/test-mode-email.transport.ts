import { Injectable, Logger } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { LRUCache } from 'lru-cache';
import { GetAccountModeQuery } from '@leadflow/accounts-contracts';
import { EmailTransport, OutgoingMessage, TransportReceipt } from '@leadflow/messaging-core';
import { NodemailerEmailTransport } from './nodemailer-email.transport';

/** The `provider_message_id` recorded for an email of a sandbox account: it was never handed over. */
export const TEST_MODE_PROVIDER_MESSAGE_ID = 'skipped_test_mode';

/**
 * Test mode (issue 15, item 4) in front of {@link NodemailerEmailTransport}: a message of a sandbox
 * account (accounts' published `GetAccountModeQuery` answers `test`) is never handed to the mail system;
 * the attempt succeeds, so the email is recorded `sent` (with its `email_sent` event) and
 * `provider_message_id` = `skipped_test_mode`. Live accounts' messages go through unchanged. An account's
 * mode never changes, so answers are cached in the process.
 */
@Injectable()
export class TestModeEmailTransport extends EmailTransport {
  private readonly logger = new Logger('EmailTransport');
  private readonly modes = new LRUCache<string, 'live' | 'test'>({ max: 10_000 });

  constructor(
    private readonly delegate: NodemailerEmailTransport,
    private readonly queries: QueryBus,
  ) {
    super();
  }

  async send(message: OutgoingMessage): Promise<TransportReceipt> {
    if (message.accountId && (await this.modeOf(message.accountId)) === 'test') {
      this.logger.log({ msg: 'Email of a sandbox account recorded, not sent (test mode)', email_id: message.emailId, account_id: message.accountId });
      return { providerMessageId: TEST_MODE_PROVIDER_MESSAGE_ID };
    }
    return this.delegate.send(message);
  }

  private async modeOf(accountId: NonNullable<OutgoingMessage['accountId']>): Promise<'live' | 'test'> {
    const cached = this.modes.get(accountId);
    if (cached) return cached;
    const found = await this.queries.execute(new GetAccountModeQuery(accountId));
    const mode = found?.mode ?? 'live';
    this.modes.set(accountId, mode);
    return mode;
  }
}
