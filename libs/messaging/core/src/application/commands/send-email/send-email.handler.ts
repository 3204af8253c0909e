import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AccountId, normalizeEmail, UnitOfWork, ValidationFailedError } from '@leadflow/shared-kernel';
import { QueueEmailCommand } from '@leadflow/messaging-contracts';
import { EmailVariableValues, recipientVariableValues, renderEmailVariables, SAMPLE_VARIABLE_VALUES } from '../../../domain/email-variables';
import { RecipientNotAllowedError, RecipientUnsubscribedError } from '../../../domain/messaging.errors';
import { ContactHistory, MessagingDirectory } from '../../ports/messaging-directory.port';
import { SendEmailCommand, SentEmailView } from './send-email.command';

/**
 * `POST /v1/emails/send`, in one transaction:
 * - test mode: the recipient must be an active team member (else 400 `recipient_not_allowed`); the
 *   unsubscribe list is not consulted (compliance checks bypassed); variables get the sample values;
 *   the subject is prefixed `[TEST]`; the send takes a slot of the shared test quota (429
 *   `test_quota_exceeded`); no email thread, contact link or timeline entry is written.
 * - otherwise: an address on the unsubscribe list gives 409 `recipient_unsubscribed`; variables get
 *   the values of the contact holding the address (empty when unknown); the email joins the
 *   address's thread, and the contact (if any) gets an `email_queued` timeline entry.
 * Then QueueEmailCommand (`transactional`, priority 1, default sender, else 400 `no_sender_configured`).
 * Any refusal writes nothing.
 */
@CommandHandler(SendEmailCommand)
export class SendEmailHandler implements ICommandHandler<SendEmailCommand> {
  constructor(
    private readonly commands: CommandBus,
    private readonly directory: MessagingDirectory,
    private readonly history: ContactHistory,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async execute({ accountId, email, actor }: SendEmailCommand): Promise<SentEmailView> {
    const to = normalizeEmail(email.to);
    if (!to) throw new ValidationFailedError([{ field: 'to', reason: 'invalid_format', message: 'to must be an email address.' }]);
    return this.unitOfWork.run(async () => {
      let values: EmailVariableValues;
      let contactId: string | null = null;
      if (email.test) {
        await this.requireActiveTeamMember(accountId, to);
        values = SAMPLE_VARIABLE_VALUES;
      } else {
        const known = await this.directory.recipient(accountId, to);
        if (known.unsubscribed) throw new RecipientUnsubscribedError();
        values = recipientVariableValues(to, known.contact);
        contactId = known.contact?.id ?? null;
      }
      const queued = await this.commands.execute(
        new QueueEmailCommand(accountId, {
          to,
          subject: renderEmailVariables(email.subject, values, { html: false }),
          html: renderEmailVariables(email.html, values, { html: true }),
          type: 'transactional',
          priority: 1,
          isTest: email.test,
          contactId,
          source: { kind: 'api', id: 'emails.send' },
        }, actor),
      );
      const threadId = queued.threadId ?? null;
      if (contactId) await this.history.emailQueued(accountId, contactId, actor, { email_id: queued.id, thread_id: threadId, subject: queued.subject ?? email.subject, to });
      return {
        id: queued.id,
        status: 'queued',
        to: queued.to ?? to,
        subject: queued.subject ?? email.subject,
        from: queued.from,
        type: 'transactional',
        priority: 1,
        test: email.test,
        thread_id: threadId,
        contact_id: contactId,
        created_at: queued.createdAt ?? new Date().toISOString(),
      };
    });
  }

  private async requireActiveTeamMember(accountId: AccountId, to: string): Promise<void> {
    const member = await this.directory.teamMember(accountId, to);
    if (!member || !member.isActive) throw new RecipientNotAllowedError();
  }
}
