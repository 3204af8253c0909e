import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A row of `usage.hour_buckets`: one key's usage in one UTC hour. */
@Entity({ schema: 'usage', name: 'hour_buckets' })
export class UsageHourBucketRecord {
  @PrimaryColumn('uuid') accountId: string;
  @PrimaryColumn('uuid') apiKeyId: string;
  @PrimaryColumn('timestamptz') bucketStart: Date;
  @Column('int') requestCount: number;
  @Column('int', { name: 'status_2xx' }) status2xx: number;
  @Column('int', { name: 'status_4xx' }) status4xx: number;
  @Column('int', { name: 'status_5xx' }) status5xx: number;
  @Column('int') rateLimitedCount: number;
  @Column('int') statusUnknown: number;
  @Column('double precision', { name: 'latency_p50_ms' }) latencyP50Ms: number;
  @Column('double precision', { name: 'latency_p95_ms' }) latencyP95Ms: number;
  @Column('double precision', { name: 'latency_p99_ms' }) latencyP99Ms: number;
  /** LatencyHistogram bins `{ "<bin>": count }` (day percentiles merge them). */
  @Column('jsonb') latencyHistogram: Record<string, number>;
  @Column('boolean') closed: boolean;
  @Column('timestamptz') aggregatedAt: Date;
}

export const USAGE_RECORDS = [UsageHourBucketRecord];
