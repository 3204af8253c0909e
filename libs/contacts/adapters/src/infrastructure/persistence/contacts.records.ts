import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Actor } from '@leadflow/shared-kernel';
import type { CustomFieldType, CustomFieldValue } from '@leadflow/contacts-contracts';

/** `contacts.contacts`: one person; a deal when `stage_id` is set. `deal_value_cents` is bigint (read as a string). */
@Entity({ schema: 'contacts', name: 'contacts' })
export class ContactRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') accountId: string;
  @Column({ type: 'text', nullable: true }) firstName: string | null;
  @Column({ type: 'text', nullable: true }) lastName: string | null;
  @Column({ type: 'text', nullable: true }) email: string | null;
  @Column({ type: 'text', nullable: true }) phone: string | null;
  @Column({ type: 'text', nullable: true }) company: string | null;
  @Column({ type: 'bigint', nullable: true }) dealValueCents: string | null;
  @Column('jsonb') customFields: Record<string, CustomFieldValue>;
  @Column('boolean') isPriority: boolean;
  @Column({ type: 'text', nullable: true }) notes: string | null;
  @Column('text') source: string;
  @Column('uuid') systemId: string;
  @Column({ type: 'uuid', nullable: true }) pipelineId: string | null;
  @Column({ type: 'uuid', nullable: true }) stageId: string | null;
  @Column({ type: 'uuid', nullable: true }) salesRepId: string | null;
  @Column('jsonb') attribution: Record<string, unknown>;
  @Column({ type: 'text', nullable: true }) address: string | null;
  @Column({ type: 'text', nullable: true }) postalCode: string | null;
  @Column({ type: 'text', nullable: true }) addressPlaceId: string | null;
  @Column({ type: 'text', nullable: true }) street: string | null;
  @Column({ type: 'text', nullable: true }) city: string | null;
  @Column({ type: 'text', nullable: true }) sector: string | null;
  @Column({ type: 'text', nullable: true }) province: string | null;
  @Column({ type: 'text', nullable: true }) country: string | null;
  @Column({ type: 'text', nullable: true }) sourceLabel: string | null;
  /** `YYYY-MM-DD` (a PostgreSQL `date`, read as a string). */
  @Column({ type: 'date', nullable: true }) expectedCloseDate: string | null;
  @Column({ type: 'timestamptz', nullable: true }) archivedAt: Date | null;
  @Column({ type: 'uuid', nullable: true }) mergedIntoId: string | null;
  @Column({ type: 'timestamptz', nullable: true }) mergedAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) disqualifiedAt: Date | null;
  /** Lead score 0–100 (contacts-core › domain/lead-score); written at insert and by the worker's `lead-score` consumer only. */
  @Column('smallint') score: number;
  /** When the score's recency part next drops (the worker's hourly pass recomputes it), or null. */
  @Column({ type: 'timestamptz', nullable: true }) scoreReviewAt: Date | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}

/** `contacts.contact_identities`: an email or phone (primary or secondary) of a contact; unique per account. */
@Entity({ schema: 'contacts', name: 'contact_identities' })
export class ContactIdentityRecord {
  @PrimaryColumn('uuid') accountId: string;
  @PrimaryColumn('text') kind: 'email' | 'phone';
  @PrimaryColumn('text') value: string;
  @Column('uuid') contactId: string;
  @Column('boolean') isPrimary: boolean;
  @Column('timestamptz') createdAt: Date;
}

@Entity({ schema: 'contacts', name: 'custom_field_definitions' })
export class CustomFieldDefinitionRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') accountId: string;
  @Column('text') name: string;
  @Column('text') type: CustomFieldType;
  @Column({ type: 'jsonb', nullable: true }) options: string[] | null;
  @Column('int') position: number;
  @Column('timestamptz') createdAt: Date;
}

@Entity({ schema: 'contacts', name: 'tags' })
export class TagRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') accountId: string;
  @Column('text') name: string;
  @Column('text') color: string;
  @Column({ type: 'text', nullable: true }) description: string | null;
  @Column({ type: 'text', nullable: true }) category: string | null;
  @Column({ type: 'text', nullable: true }) systemKey: string | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}

@Entity({ schema: 'contacts', name: 'contact_tags' })
export class ContactTagRecord {
  @PrimaryColumn('uuid') accountId: string;
  @PrimaryColumn('uuid') contactId: string;
  @PrimaryColumn('uuid') tagId: string;
  @Column('timestamptz') createdAt: Date;
}

@Entity({ schema: 'contacts', name: 'contact_notes' })
export class ContactNoteRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') accountId: string;
  @Column('uuid') contactId: string;
  @Column('text') body: string;
  @Column('jsonb') actor: Actor;
  @Column('timestamptz') createdAt: Date;
}

/** `contacts.lead_captures`: one recorded lead capture (outcome `created`); opens the contact's 5 minute window. */
@Entity({ schema: 'contacts', name: 'lead_captures' })
export class LeadCaptureRecordRow {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') accountId: string;
  @Column('uuid') contactId: string;
  @Column('uuid') activityId: string;
  @Column('boolean') contactWasNew: boolean;
  @Column('timestamptz') capturedAt: Date;
}

/** `contacts.sms_handoffs`: a captured lead handed over to the SMS bot (one per `lead_created` event). */
@Entity({ schema: 'contacts', name: 'sms_handoffs' })
export class SmsHandOffRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') accountId: string;
  @Column('uuid') eventId: string;
  @Column('uuid') contactId: string;
  @Column('uuid') captureId: string;
  @Column('text') phone: string;
  @Column({ type: 'text', nullable: true }) firstName: string | null;
  /** `pending` until the SMS bot takes it. */
  @Column('text') status: string;
  @Column('timestamptz') capturedAt: Date;
  @Column('timestamptz') createdAt: Date;
}

export const CONTACTS_RECORDS = [
  ContactRecord,
  ContactIdentityRecord,
  CustomFieldDefinitionRecord,
  TagRecord,
  ContactTagRecord,
  ContactNoteRecord,
  LeadCaptureRecordRow,
  SmsHandOffRecord,
];
