import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AccountId, Clock, newId, SYSTEM_ACTOR } from '@leadflow/shared-kernel';
import { EmailQueuedPayload, MESSAGING_EVENTS, QueueEmailCommand, QueuedEmail } from '@leadflow/messaging-contracts';
import { NoSenderConfiguredError } from '../../../domain/messaging.errors';
import { checkEmailRequest, EmailSender, queuedEmail } from '../../../domain/outgoing-email';
import { OutgoingEmailRepository } from '../../ports/outgoing-email.repository.port';
import { SenderRepository } from '../../ports/sender.repository.port';
import { MessagingOutbox, UnitOfWork } from '../../ports/unit-of-work.port';

/**
 * The outgoing-email path's entry (quotes, bookings, automations, `POST /v1/emails/send`): checks
 * the request (400 `validation_error`), resolves the sender (the request's `from`, else the account's
 * default sender, else 400 `no_sender_configured`), then writes the `queued` row, its status change
 * and an `email_queued` outbox event in the caller's unit of work: an email whose transaction rolls
 * back is never sent. The worker sends it.
 */
@CommandHandler(QueueEmailCommand)
export class QueueEmailHandler implements ICommandHandler<QueueEmailCommand> {
  constructor(
    private readonly emails: OutgoingEmailRepository,
    private readonly senders: SenderRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly outbox: MessagingOutbox,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, email: request }: QueueEmailCommand): Promise<QueuedEmail> {
    const checked = checkEmailRequest(request);
    return this.unitOfWork.run(async () => {
      const sender = checked.from ?? (await this.defaultSender(accountId));
      const now = this.clock.now();
      const email = queuedEmail(accountId, newId(), checked, sender, now);
      await this.emails.insert(email);
      const payload: EmailQueuedPayload = {
        email_id: email.id,
        type: email.type,
        priority: email.priority,
        is_test: email.isTest,
        contact_id: email.contactId,
        source: email.source,
      };
      await this.outbox.append([{ id: newId(), type: MESSAGING_EVENTS.emailQueued, accountId, occurredAt: now, payload, actor: SYSTEM_ACTOR }]);
      return { id: email.id, status: 'queued', from: { email: sender.email, name: sender.name } };
    });
  }

  private async defaultSender(accountId: AccountId): Promise<EmailSender> {
    const sender = await this.senders.findDefault(accountId);
    if (!sender) throw new NoSenderConfiguredError();
    return { email: sender.email, name: sender.name };
  }
}
