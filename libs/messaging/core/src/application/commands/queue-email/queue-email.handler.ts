import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AccountId, Clock, Journal, newId, SYSTEM_ACTOR, UnitOfWork } from '@leadflow/shared-kernel';
import { EmailQueuedPayload, MESSAGING_EVENTS, QueueEmailCommand, QueuedEmail } from '@leadflow/messaging-contracts';
import { NoSenderConfiguredError, TestQuotaExceededError } from '../../../domain/messaging.errors';
import { checkEmailRequest, EmailSender, queuedEmail } from '../../../domain/outgoing-email';
import { EmailThreadRepository } from '../../ports/email-threads.ports';
import { OutgoingEmailRepository } from '../../ports/outgoing-email.repository.port';
import { SenderRepository } from '../../ports/sender.repository.port';
import { TestSendLedger } from '../../ports/test-send-ledger.port';

/**
 * Test emails per account per rolling window (public-api-v1 › Limits: 50 per rolling 24 hours,
 * shared with the platform's test buttons): every test send goes through QueueEmailCommand, so this
 * one count is the shared counter.
 */
export const TEST_SEND_QUOTA = { limit: 50, windowMs: 24 * 60 * 60 * 1000 } as const;

/**
 * The outgoing-email path's entry (quotes, bookings, automations, `POST /v1/emails/send`): checks
 * the request (400 `validation_error`), resolves the sender (the request's `from`, else the account's
 * default sender, else 400 `no_sender_configured`), then writes the `queued` row, its status change
 * and an `email_queued` outbox event in the caller's unit of work: an email whose transaction rolls
 * back is never sent. The worker sends it. A test email first takes a slot of the account's test
 * quota ({@link TEST_SEND_QUOTA}, 429 `test_quota_exceeded`, serialised per account); any other
 * email joins the recipient's email thread.
 */
@CommandHandler(QueueEmailCommand)
export class QueueEmailHandler implements ICommandHandler<QueueEmailCommand> {
  constructor(
    private readonly emails: OutgoingEmailRepository,
    private readonly senders: SenderRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: Journal,
    private readonly clock: Clock,
    private readonly threads: EmailThreadRepository,
    private readonly testSends: TestSendLedger,
  ) {}

  async execute({ accountId, email: request, actor }: QueueEmailCommand): Promise<QueuedEmail> {
    const checked = checkEmailRequest(request);
    return this.unitOfWork.run(async () => {
      const sender = checked.from ?? (await this.defaultSender(accountId));
      const now = this.clock.now();
      if (checked.isTest) await this.takeTestSlot(accountId, now);
      const threadId = checked.isTest
        ? null
        : await this.threads.touch(accountId, { address: checked.to, sender: sender.email, subject: checked.subject, contactId: checked.contactId, at: now });
      const email = { ...queuedEmail(accountId, newId(), checked, sender, now), threadId };
      await this.emails.insert(email);
      const payload: EmailQueuedPayload = {
        email_id: email.id,
        type: email.type,
        priority: email.priority,
        is_test: email.isTest,
        contact_id: email.contactId,
        source: email.source,
      };
      await this.journal.publish([{ id: newId(), type: MESSAGING_EVENTS.emailQueued, accountId, occurredAt: now, payload, actor: actor ?? SYSTEM_ACTOR }]);
      return { id: email.id, status: 'queued', from: { email: sender.email, name: sender.name }, threadId, to: email.to, subject: email.subject, createdAt: now.toISOString() };
    });
  }

  /** Throws 429 `test_quota_exceeded` when the window is full; `Retry-After` = when its oldest test send leaves it. */
  private async takeTestSlot(accountId: AccountId, now: Date): Promise<void> {
    const usage = await this.testSends.lockAndCount(accountId, new Date(now.getTime() - TEST_SEND_QUOTA.windowMs));
    if (usage.used < TEST_SEND_QUOTA.limit) return;
    const freedAt = (usage.oldest ?? now).getTime() + TEST_SEND_QUOTA.windowMs;
    throw new TestQuotaExceededError(TEST_SEND_QUOTA.limit, usage.used, Math.max(1, Math.ceil((freedAt - now.getTime()) / 1000)));
  }

  private async defaultSender(accountId: AccountId): Promise<EmailSender> {
    const sender = await this.senders.findDefault(accountId);
    if (!sender) throw new NoSenderConfiguredError();
    return { email: sender.email, name: sender.name };
  }
}
