import { Injectable } from '@nestjs/common';
import { RedisConnection } from '../../redis/redis.connection';
import { parseSortableLsn, sortableLsn } from './wal-position';

/**
 * How long a writer's "must have seen" LSN is kept (ms). Past it, any replica within
 * `DATABASE_READ_MAX_LAG_MS` (at most 60 s, checked by AppConfig) has replayed the write anyway.
 */
export const WRITTEN_LSN_TTL_MS = 120_000;

/** How long a read waits for Redis's answer before it goes to the primary instead (ms). */
export const WRITTEN_LSN_READ_TIMEOUT_MS = 250;

/** Keeps the larger of the stored and the given LSN (16 hex digits: string order is LSN order) and renews the TTL. */
const RECORD_MAX = `
local current = redis.call('GET', KEYS[1])
if current and current >= ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return current
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return ARGV[1]`;

/**
 * Read-your-writes across api processes and nodes (docs/adr/0007): per writer (an API key id, or
 * `operator` for the operator token), the primary's WAL position after its latest write, in Redis as one
 * small key `read_lsn:<writer>` with a TTL of {@link WRITTEN_LSN_TTL_MS}. On a Redis Cluster the key carries
 * the writer in its hash tag (`{<prefix>:<writer>}:read_lsn:<writer>`, RedisConnection.slotKey).
 * Writes only raise the value (concurrent writes of one key on two processes keep the larger LSN).
 */
@Injectable()
export class WrittenLsnStore {
  constructor(private readonly redis: RedisConnection) {}

  /**
   * Raises `writer`'s LSN to `lsn` (kept if already higher) and renews its TTL.
   * @throws the Redis client's error (Redis unreachable): the caller logs it.
   */
  async record(writer: string, lsn: bigint): Promise<void> {
    await this.redis.client.eval(RECORD_MAX, 1, this.keyOf(writer), sortableLsn(lsn), String(WRITTEN_LSN_TTL_MS));
  }

  /**
   * The LSN a read by `writer` must see: 0n when it wrote nothing within the TTL, `undefined` when Redis
   * did not answer within {@link WRITTEN_LSN_READ_TIMEOUT_MS} or failed (unknown: read from the primary).
   */
  async mustHaveSeen(writer: string): Promise<bigint | undefined> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const value = await Promise.race([
        this.redis.client.get(this.keyOf(writer)),
        new Promise<typeof TIMED_OUT>((resolve) => {
          timer = setTimeout(() => resolve(TIMED_OUT), WRITTEN_LSN_READ_TIMEOUT_MS);
        }),
      ]);
      if (value === TIMED_OUT) return undefined;
      return value === null ? 0n : parseSortableLsn(value);
    } catch {
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  private keyOf(writer: string): string {
    return this.redis.slotKey(writer, 'read_lsn', writer);
  }
}

const TIMED_OUT = Symbol('timed out');
