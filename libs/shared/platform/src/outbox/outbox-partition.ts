/**
 * The outbox's account partitions (docs/adr/0008): a row belongs to partition
 * `hashtext(account_id::text) & (OUTBOX_PARTITIONS - 1)`, so all events of one account share one
 * partition and keep their order in it. The relay claims rows one partition at a time; no statement locks
 * rows of several partitions. The expression is indexed (`outbox_partition_pending_idx`,
 * `outbox_partition_order_idx`): queries must use {@link OUTBOX_PARTITION_SQL} verbatim to reach them.
 */
export const OUTBOX_PARTITIONS = 16;

/** SQL of a row's partition over `platform.outbox` (unqualified `account_id`). */
export const OUTBOX_PARTITION_SQL = `(hashtext(account_id::text) & ${OUTBOX_PARTITIONS - 1})`;
