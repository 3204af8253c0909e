import type { AccountId } from '@leadflow/shared-kernel';
import { InMemoryStore } from '@leadflow/shared-testing/fakes';
import type { SenderView } from '@leadflow/messaging-contracts';
import { EmailTransport, TransportReceipt } from '../application/ports/email-transport.port';
import { EmailThreadRepository, ThreadMessage } from '../application/ports/email-threads.ports';
import { TestSendLedger, TestSendUsage } from '../application/ports/test-send-ledger.port';
import { DeliverySettlement, EmailStatusChange, OutgoingEmailRepository } from '../application/ports/outgoing-email.repository.port';
import { SenderRepository } from '../application/ports/sender.repository.port';
import type { OutgoingEmailState, OutgoingMessage } from '../domain/outgoing-email';
import type { ExistingSender, Sender } from '../domain/sender.entity';

/** Every row of the fakes, one object so a unit of work can snapshot and restore it (events: the journal's). */
export class InMemoryMessagingStore extends InMemoryStore {
  senders: (Sender & { accountId: string })[] = [];
  emails: OutgoingEmailState[] = [];
  changes: (EmailStatusChange & { accountId: string })[] = [];
  threads: { id: string; accountId: string; address: string; participants: string[]; subject: string; contactId: string | null; messageCount: number; lastMessageAt: Date; createdAt: Date }[] = [];
}

export class InMemorySenderRepository extends SenderRepository {
  constructor(private readonly store: InMemoryMessagingStore) {
    super();
  }

  async listExisting(accountId: AccountId): Promise<ExistingSender[]> {
    return this.store.senders.filter((s) => s.accountId === accountId).map(({ email, isDefault }) => ({ email, isDefault }));
  }

  async insert(accountId: AccountId, senders: readonly Sender[]): Promise<void> {
    this.store.senders.push(...senders.map((sender) => ({ ...sender, accountId })));
  }

  async findDefault(accountId: AccountId): Promise<SenderView | null> {
    const row = this.store.senders.find((s) => s.accountId === accountId && s.isDefault);
    return row ? { id: row.id, email: row.email, name: row.name, isDefault: true } : null;
  }

  async list(accountId: AccountId): Promise<SenderView[]> {
    return this.store.senders
      .filter((s) => s.accountId === accountId)
      .sort((a, b) => Number(b.isDefault) - Number(a.isDefault))
      .map((s) => ({ id: s.id, email: s.email, name: s.name, isDefault: s.isDefault }));
  }
}

export class InMemoryOutgoingEmailRepository extends OutgoingEmailRepository {
  constructor(private readonly store: InMemoryMessagingStore) {
    super();
  }

  async insert(email: OutgoingEmailState): Promise<void> {
    this.store.emails.push({ ...email });
    this.record(email.accountId, { emailId: email.id, from: null, to: 'queued', attempt: 0, error: null, at: email.createdAt });
  }

  async find(accountId: AccountId, emailId: string): Promise<OutgoingEmailState | null> {
    const row = this.row(accountId, emailId);
    return row ? { ...row } : null;
  }

  async claim(accountId: AccountId, emailId: string, now: Date, staleBefore: Date): Promise<OutgoingEmailState | null> {
    const row = this.row(accountId, emailId);
    if (!row || !(row.status === 'queued' || (row.status === 'sending' && row.updatedAt < staleBefore))) return null;
    const from = row.status;
    Object.assign(row, { status: 'sending', attempts: row.attempts + 1, updatedAt: now });
    this.record(accountId, { emailId, from, to: 'sending', attempt: row.attempts, error: null, at: now });
    return { ...row };
  }

  async settle(accountId: AccountId, emailId: string, attempt: number, settlement: DeliverySettlement): Promise<OutgoingEmailState | null> {
    const row = this.row(accountId, emailId);
    if (!row || row.status !== 'sending' || row.attempts !== attempt) return null;
    row.status = settlement.status;
    row.updatedAt = settlement.at;
    if (settlement.status === 'sent') {
      Object.assign(row, { sentAt: settlement.at, providerMessageId: settlement.providerMessageId, lastError: null });
    } else {
      row.lastError = settlement.error;
    }
    this.record(accountId, {
      emailId,
      from: 'sending',
      to: settlement.status,
      attempt,
      error: settlement.status === 'sent' ? null : settlement.error,
      at: settlement.at,
    });
    return { ...row };
  }

  async history(accountId: AccountId, emailId: string): Promise<EmailStatusChange[]> {
    return this.store.changes.filter((c) => c.accountId === accountId && c.emailId === emailId).map(({ accountId: _, ...change }) => change);
  }

  private row(accountId: AccountId, emailId: string): OutgoingEmailState | undefined {
    return this.store.emails.find((e) => e.accountId === accountId && e.id === emailId);
  }

  private record(accountId: string, change: EmailStatusChange): void {
    this.store.changes.push({ ...change, accountId });
  }
}

/** A transport that records what it is handed and answers from a script (one entry per call; then success). */
export class ScriptedEmailTransport extends EmailTransport {
  readonly sent: OutgoingMessage[] = [];
  private readonly script: (Error | TransportReceipt)[] = [];

  /** Queues the next answers: an Error is thrown, a receipt is returned. */
  answer(...answers: (Error | TransportReceipt)[]): this {
    this.script.push(...answers);
    return this;
  }

  async send(message: OutgoingMessage): Promise<TransportReceipt> {
    this.sent.push(message);
    const next = this.script.shift() ?? { providerMessageId: message.messageId };
    if (next instanceof Error) throw next;
    return next;
  }
}

/** Threads keyed by account and address, as the SQL upsert keeps them. */
export class InMemoryEmailThreadRepository extends EmailThreadRepository {
  constructor(private readonly store: InMemoryMessagingStore) {
    super();
  }

  async touch(accountId: AccountId, message: ThreadMessage): Promise<string> {
    const thread = this.store.threads.find((t) => t.accountId === accountId && t.address === message.address);
    if (!thread) {
      const id = `thread-${this.store.threads.length + 1}`;
      this.store.threads.push({
        id,
        accountId,
        address: message.address,
        participants: [message.address, message.sender],
        subject: message.subject,
        contactId: message.contactId,
        messageCount: 1,
        lastMessageAt: message.at,
        createdAt: message.at,
      });
      return id;
    }
    Object.assign(thread, { subject: message.subject, messageCount: thread.messageCount + 1, lastMessageAt: message.at, contactId: thread.contactId ?? message.contactId });
    if (!thread.participants.includes(message.sender)) thread.participants.push(message.sender);
    return thread.id;
  }
}

/** Counts the store's test emails (no lock needed: one thread). */
export class InMemoryTestSendLedger extends TestSendLedger {
  constructor(private readonly store: InMemoryMessagingStore) {
    super();
  }

  async lockAndCount(accountId: AccountId, since: Date): Promise<TestSendUsage> {
    const tests = this.store.emails.filter((e) => e.accountId === accountId && e.isTest && e.createdAt.getTime() > since.getTime());
    const oldest = tests.reduce<Date | null>((min, e) => (min === null || e.createdAt < min ? e.createdAt : min), null);
    return { used: tests.length, oldest };
  }
}
