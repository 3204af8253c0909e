import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { AccountMode, Feature, QuoteDefaults, Scope } from '@leadflow/accounts-contracts';

@Entity({ schema: 'accounts', name: 'accounts' })
export class AccountRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('text') name: string;
  @Column('text') timezone: string;
  @Column('text', { array: true }) features: Feature[];
  @Column('boolean') apiTermsAccepted: boolean;
  @Column('jsonb') quoteDefaults: QuoteDefaults;
  @Column('timestamptz') createdAt: Date;
  /** `live`, or `test` for a sandbox (issue 15, item 4). */
  @Column({ type: 'text', default: 'live' }) mode?: AccountMode;
  /** The live account a sandbox belongs to; null for a live account. */
  @Column({ type: 'uuid', nullable: true }) sandboxOf?: string | null;
}

@Entity({ schema: 'accounts', name: 'systems' })
export class SystemRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') accountId: string;
  @Column('text') name: string;
  @Column('boolean') isMain: boolean;
  @Column('boolean') isActive: boolean;
  @Column('timestamptz') createdAt: Date;
}

@Entity({ schema: 'accounts', name: 'team_members' })
export class TeamMemberRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') accountId: string;
  @Column('text') email: string;
  @Column({ type: 'text', nullable: true }) firstName: string | null;
  @Column({ type: 'text', nullable: true }) lastName: string | null;
  @Column('boolean') isActive: boolean;
  @Column('boolean') isSalesRep: boolean;
  @Column('boolean') canDeleteProspects: boolean;
  @Column('timestamptz') createdAt: Date;
}

@Entity({ schema: 'accounts', name: 'api_keys' })
export class ApiKeyRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') accountId: string;
  @Column('text') name: string;
  @Column('text') prefix: string;
  @Column('text') secretHash: string;
  @Column('text', { array: true }) scopes: Scope[];
  @Column('int') perHour: number;
  @Column('int') eventsPerMinute: number;
  @Column({ type: 'timestamptz', nullable: true }) expiresAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) revokedAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) lastUsedAt: Date | null;
  @Column('timestamptz') createdAt: Date;
  /** The account's mode when the key was issued (`lf_live_` or `lf_test_`); never changes. */
  @Column({ type: 'text', default: 'live' }) mode?: AccountMode;
}

export const ACCOUNTS_RECORDS = [AccountRecord, SystemRecord, TeamMemberRecord, ApiKeyRecord];
