import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, Journal, newId, SYSTEM_ACTOR, UnitOfWork } from '@leadflow/shared-kernel';
import { EmailDeliveredPayload, MESSAGING_EVENTS } from '@leadflow/messaging-contracts';
import { describeDeliveryFailure, isPermanentDeliveryFailure } from '../../../domain/delivery-failure';
import { OutgoingEmailState, outgoingMessage } from '../../../domain/outgoing-email';
import { EmailTransport, TransportReceipt } from '../../ports/email-transport.port';
import { DeliverySettlement, OutgoingEmailRepository } from '../../ports/outgoing-email.repository.port';
import { DeliverOutgoingEmailCommand, DeliveryOutcome } from './deliver-outgoing-email.command';

/**
 * How long a claim (`sending`) protects an email from another worker. Longer than any hand-over
 * (the SMTP transport's timeouts add up to about a minute and a half); past it, the worker that
 * claimed the email is presumed dead and the email may be claimed again.
 */
export const SENDING_LEASE_MS = 10 * 60_000;

/**
 * One delivery attempt: claim (`queued` → `sending`, attempts + 1), hand over outside any
 * transaction, then settle in one transaction with its outbox event: `sent` (`email_sent`), `queued`
 * again after a transient failure, or `failed` (`email_failed`) after a permanent one or on the final
 * attempt. Every change is recorded. Idempotent: an email already `sent` or `failed` is left alone,
 * so a repeated job sends nothing. At least once: a worker that dies after the server accepted the
 * message but before the commit leaves the email `sending`; after {@link SENDING_LEASE_MS} it is
 * sent again, with the same Message-ID.
 */
@CommandHandler(DeliverOutgoingEmailCommand)
export class DeliverOutgoingEmailHandler implements ICommandHandler<DeliverOutgoingEmailCommand> {
  constructor(
    private readonly emails: OutgoingEmailRepository,
    private readonly transport: EmailTransport,
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: Journal,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, emailId, finalAttempt }: DeliverOutgoingEmailCommand): Promise<DeliveryOutcome> {
    const now = this.clock.now();
    const claimed = await this.unitOfWork.run(() => this.emails.claim(accountId, emailId, now, new Date(now.getTime() - SENDING_LEASE_MS)));
    if (!claimed) {
      const current = await this.emails.find(accountId, emailId);
      if (!current) return { result: 'skipped', status: 'missing' };
      if (current.status === 'sent' || current.status === 'failed') return { result: 'skipped', status: current.status };
      return { result: 'busy' };
    }

    let receipt: TransportReceipt;
    try {
      receipt = await this.transport.send(outgoingMessage(claimed));
    } catch (error) {
      const description = describeDeliveryFailure(error);
      const permanent = isPermanentDeliveryFailure(error);
      if (!permanent && !finalAttempt) {
        const settled = await this.settle(claimed, { status: 'queued', error: description, at: this.clock.now() });
        return settled ? { result: 'retry', attempts: claimed.attempts, error: description } : { result: 'busy' };
      }
      const settled = await this.settle(claimed, { status: 'failed', error: description, at: this.clock.now() });
      return settled ? { result: 'failed', attempts: claimed.attempts, error: description, permanent } : { result: 'busy' };
    }
    const settled = await this.settle(claimed, { status: 'sent', providerMessageId: receipt.providerMessageId, at: this.clock.now() });
    return settled ? { result: 'sent', attempts: claimed.attempts } : { result: 'busy' };
  }

  /** Settles the attempt with its outbox event (`email_sent` / `email_failed`) in one transaction. */
  private settle(claimed: OutgoingEmailState, settlement: DeliverySettlement): Promise<OutgoingEmailState | null> {
    return this.unitOfWork.run(async () => {
      const settled = await this.emails.settle(claimed.accountId, claimed.id, claimed.attempts, settlement);
      if (settled && settlement.status !== 'queued') {
        const payload: EmailDeliveredPayload = {
          email_id: settled.id,
          to: settled.to,
          subject: settled.subject,
          type: settled.type,
          is_test: settled.isTest,
          contact_id: settled.contactId,
          source: settled.source,
          status: settlement.status,
          attempts: settled.attempts,
          sent_at: settled.sentAt?.toISOString() ?? null,
          last_error: settled.lastError,
        };
        const type = settlement.status === 'sent' ? MESSAGING_EVENTS.emailSent : MESSAGING_EVENTS.emailFailed;
        await this.journal.publish([{ id: newId(), type, accountId: settled.accountId, occurredAt: settlement.at, payload, actor: SYSTEM_ACTOR }]);
      }
      return settled;
    });
  }
}
