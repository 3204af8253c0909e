import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Feature, QuoteDefaults, Scope } from '@leadflow/accounts-contracts';

@Entity({ schema: 'accounts', name: 'accounts' })
export class AccountRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('text') name: string;
  @Column('text') timezone: string;
  @Column('text', { array: true }) features: Feature[];
  @Column('boolean') apiTermsAccepted: boolean;
  @Column('jsonb') quoteDefaults: QuoteDefaults;
  @Column('timestamptz') createdAt: Date;
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
}

export const ACCOUNTS_RECORDS = [AccountRecord, SystemRecord, TeamMemberRecord, ApiKeyRecord];
