import type { AccountId } from '@leadflow/shared-kernel';
import type { ContactsConfiguration, TagSpec } from '@leadflow/contacts-contracts';

/** A tag to create as given (test mode's copy of a configuration): its id already chosen. */
export interface ProvisionedTag extends TagSpec {
  id: string;
}

/**
 * Test mode (operator-api › Test mode, issue 15 item 4), contacts side: persistence of a sandbox's copy and
 * reset, inside the caller's transaction, touching only the `contacts` schema.
 */
export abstract class ContactsSandboxData {
  /** The account's custom field definitions (position order) and tags (creation order); never contacts. */
  abstract exportConfiguration(accountId: AccountId): Promise<ContactsConfiguration>;
  /** Inserts `tags` as given (names already valid and unique), `created_at` = `updated_at` = `now`. */
  abstract insertTags(accountId: AccountId, tags: readonly ProvisionedTag[], now: Date): Promise<void>;
  /**
   * Deletes the account's contacts and everything hanging off them; tags and custom field definitions
   * stay. Answers `{ "<schema.table>": rows deleted }`.
   */
  abstract deleteAccountData(accountId: AccountId): Promise<Record<string, number>>;
}
