import { AccountId, FieldViolation, isUuid, ValidationFailedError } from '@leadflow/shared-kernel';
import type { ContactCard } from '@leadflow/contacts-contracts';
import { QuoteAccounts, QuoteContacts } from '../ports/quote-collaborators.port';

/**
 * The ids a quote body refers to (`contact_id`, `sales_rep_id`) must be the account's: a non-UUID gives
 * `invalid_format`, an unknown, merged or other account's id `not_found_in_tenant` (400
 * `validation_error`). A sales rep is a team member flagged `is_sales_rep` (`invalid_value` otherwise).
 */
export async function checkReferences(
  accountId: AccountId,
  refs: { contactId?: string | null; salesRepId?: string | null },
  ports: { contacts: QuoteContacts; accounts: QuoteAccounts },
): Promise<{ contact: ContactCard | null }> {
  const violations: FieldViolation[] = [];
  let contact: ContactCard | null = null;
  if (refs.contactId !== undefined && refs.contactId !== null) {
    if (!isUuid(refs.contactId)) violations.push({ field: 'contact_id', reason: 'invalid_format', message: 'contact_id must be a UUID.' });
    else {
      contact = await ports.contacts.card(accountId, refs.contactId.toLowerCase());
      if (!contact) violations.push({ field: 'contact_id', reason: 'not_found_in_tenant', message: 'No such contact in this account.' });
    }
  }
  if (refs.salesRepId !== undefined && refs.salesRepId !== null) {
    if (!isUuid(refs.salesRepId)) violations.push({ field: 'sales_rep_id', reason: 'invalid_format', message: 'sales_rep_id must be a UUID.' });
    else {
      const member = await ports.accounts.teamMember(accountId, refs.salesRepId.toLowerCase());
      if (!member) violations.push({ field: 'sales_rep_id', reason: 'not_found_in_tenant', message: 'No such team member in this account.' });
      else if (!member.isSalesRep) violations.push({ field: 'sales_rep_id', reason: 'invalid_value', message: 'This team member is not a sales rep.' });
    }
  }
  if (violations.length > 0) throw new ValidationFailedError(violations);
  return { contact };
}
