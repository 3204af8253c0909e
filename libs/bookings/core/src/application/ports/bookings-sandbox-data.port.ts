import type { AccountId } from '@leadflow/shared-kernel';
import type { ExportedCalendar } from '@leadflow/bookings-contracts';

/**
 * Test mode (operator-api › Test mode, issue 15 item 4), bookings side: persistence of a sandbox's copy and
 * reset, inside the caller's transaction, touching only the `bookings` schema.
 */
export abstract class BookingsSandboxData {
  /** The account's calendars, oldest first, in blueprint form (`hosts` empty, `hostIds` as stored). */
  abstract exportConfiguration(accountId: AccountId): Promise<ExportedCalendar[]>;
  /**
   * Deletes the account's bookings and their host calendar entries; calendars and hosts' blocked times
   * stay. Answers `{ "<schema.table>": rows deleted }`.
   */
  abstract deleteAccountData(accountId: AccountId): Promise<Record<string, number>>;
}
