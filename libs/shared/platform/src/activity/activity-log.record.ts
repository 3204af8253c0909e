import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { Actor } from '@leadflow/shared-kernel';

/**
 * One activity-log or timeline entry (`platform.activity_log`): what happened to a contact or the
 * account, by whom. Listed newest first by `GET /admin/v1/accounts/{id}/activity`.
 */
@Entity({ schema: 'platform', name: 'activity_log' })
@Index('activity_log_account_created_idx', ['accountId', 'createdAt', 'id'])
@Index('activity_log_contact_idx', ['accountId', 'contactId', 'createdAt'])
export class ActivityLogRecord {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  accountId: string;

  @Column({ type: 'uuid', nullable: true })
  contactId: string | null;

  /** e.g. `contact_created`, `lead_updated`, `note_added`, `api_key_created`. */
  @Column('text')
  type: string;

  @Column('jsonb')
  actor: Actor;

  @Column({ type: 'jsonb', default: () => "'{}'::jsonb" })
  data: Record<string, unknown>;

  @Column('timestamptz')
  createdAt: Date;
}
