import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A stored Idempotency-Key (`platform.idempotency_keys`), kept 24 hours. */
@Entity({ schema: 'platform', name: 'idempotency_keys' })
export class IdempotencyKeyRecord {
  @PrimaryColumn('uuid')
  accountId: string;

  @PrimaryColumn('text')
  key: string;

  /** sha256 of method, path and canonical JSON body. */
  @Column('text')
  fingerprint: string;

  @Column('text')
  state: 'processing' | 'completed';

  @Column({ type: 'int', nullable: true })
  responseStatus: number | null;

  @Column({ type: 'jsonb', nullable: true })
  responseBody: unknown;

  @Column('timestamptz')
  createdAt: Date;

  @Column('timestamptz')
  expiresAt: Date;

  /** While `processing`: until when the request that claimed the key holds it; then another may take over. */
  @Column({ type: 'timestamptz', nullable: true })
  leaseExpiresAt: Date | null;
}
