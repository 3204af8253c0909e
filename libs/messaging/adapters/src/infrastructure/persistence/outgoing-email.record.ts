import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { OutgoingEmailStatus, OutgoingEmailType } from '@leadflow/messaging-contracts';

/** `messaging.outgoing_emails`: one email of the outgoing-email path and its delivery state. */
@Entity({ schema: 'messaging', name: 'outgoing_emails' })
@Index('outgoing_emails_account_created_idx', ['accountId', 'createdAt', 'id'])
export class OutgoingEmailRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') accountId: string;
  @Column('text') to: string;
  @Column('text') fromEmail: string;
  @Column({ type: 'text', nullable: true }) fromName: string | null;
  @Column({ type: 'text', nullable: true }) replyTo: string | null;
  @Column('text') subject: string;
  @Column('text') html: string;
  @Column('text') type: OutgoingEmailType;
  @Column('int') priority: number;
  @Column('boolean') isTest: boolean;
  @Column({ type: 'uuid', nullable: true }) contactId: string | null;
  @Column({ type: 'jsonb', nullable: true }) source: { kind: string; id: string } | null;
  @Column({ type: 'uuid', nullable: true }) threadId: string | null;
  @Column('text') status: OutgoingEmailStatus;
  @Column('int') attempts: number;
  @Column({ type: 'text', nullable: true }) lastError: string | null;
  @Column({ type: 'text', nullable: true }) providerMessageId: string | null;
  @Column('timestamptz') createdAt: Date;
  @Column({ type: 'timestamptz', nullable: true }) sentAt: Date | null;
  @Column('timestamptz') updatedAt: Date;
}

/** `messaging.outgoing_email_status_changes`: every state change of an outgoing email, in order. */
@Entity({ schema: 'messaging', name: 'outgoing_email_status_changes' })
export class OutgoingEmailStatusChangeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column({ type: 'bigint', generated: 'increment', insert: false, update: false }) sequence: string;
  @Column('uuid') accountId: string;
  @Column('uuid') emailId: string;
  @Column({ type: 'text', nullable: true }) fromStatus: OutgoingEmailStatus | null;
  @Column('text') toStatus: OutgoingEmailStatus;
  @Column('int') attempt: number;
  @Column({ type: 'text', nullable: true }) error: string | null;
  @Column('timestamptz') createdAt: Date;
}

export const MESSAGING_EMAIL_RECORDS = [OutgoingEmailRecord, OutgoingEmailStatusChangeRecord];
