import type { AccountId } from '@leadflow/shared-kernel';
import type { Identity, IdentityKind } from '../../domain/contact-identity';

/** A stored identity matching a lookup, and the unmerged contact it counts for (the end of its merge chain). */
export interface IdentityOwner {
  kind: IdentityKind;
  value: string;
  contactId: string;
  survivorId: string;
}

/**
 * The contacts' identities (`contacts.contact_identities`: emails and phones, primary or secondary,
 * unique per account, kind and value). Filters on the account; joins the caller's unit of work.
 */
export abstract class ContactIdentityRepository {
  /**
   * Makes `value` the contact's primary identity of `kind` (null removes it); the previous primary is
   * removed and a secondary of the same contact is promoted. Throws `IdentityTakenError` when another
   * contact holds it.
   */
  abstract setPrimaryIdentity(accountId: AccountId, contactId: string, kind: IdentityKind, value: string | null, at: Date): Promise<void>;
  /**
   * Adds a secondary identity of the contact (lead capture's new phone); false when the value is
   * already stored (for this or another contact): nothing is moved.
   */
  abstract addSecondaryIdentity(accountId: AccountId, contactId: string, kind: IdentityKind, value: string, at: Date): Promise<boolean>;
  /** Stored identities (primary or secondary) equal to any of `identities`, with their surviving contact. */
  abstract findIdentityOwners(accountId: AccountId, identities: readonly Identity[]): Promise<IdentityOwner[]>;
  /** Every stored identity (primary and secondary) of the contact, emails first, then by value. */
  abstract identitiesOf(accountId: AccountId, contactId: string): Promise<{ kind: IdentityKind; value: string; isPrimary: boolean }[]>;
  /**
   * Hands every identity of `fromContactId` to `toContactId` (one statement): the ones in `primaries`
   * become its primary details, the others secondary ones (the public merge).
   */
  abstract moveIdentities(accountId: AccountId, fromContactId: string, toContactId: string, primaries: readonly Identity[]): Promise<void>;
}
