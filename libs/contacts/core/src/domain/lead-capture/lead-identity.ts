import type { Identity, IdentityKind } from '../contact-identity';
import type { IdentityHolder } from './lead-enrichment';

/**
 * The identity lookups of a person posted by a funnel (lead capture, presuasion submissions): the
 * normalised email first when there is one, then the E.164 phone when there is one
 * (public-api-v1 › Endpoints › Leads rule 1).
 */
export function leadIdentityLookups(email: string | null, phone: string | null): Identity[] {
  return [...(email ? [{ kind: 'email' as const, value: email }] : []), ...(phone ? [{ kind: 'phone' as const, value: phone }] : [])];
}

/** The contact a person resolves to, and who holds each of its identities relative to that contact. */
export interface LeadIdentityMatch {
  /** The surviving contact holding the email, else the one holding the phone; null for a new person. */
  contactId: string | null;
  /** `self` when the resolved contact holds it, `other` when another contact does (email wins), `none` when nobody does. */
  holders: { email: IdentityHolder; phone: IdentityHolder };
}

/**
 * Rule 1 of public-api-v1 › Endpoints › Leads on the stored owners of {@link leadIdentityLookups}
 * (primary and secondary details alike, each counted for its surviving contact): resolved by email
 * first, then by phone; when email and phone name two different contacts the email's contact wins and
 * the phone's holder is `other` (nothing is taken from it).
 */
export function matchLeadIdentity(owners: readonly { kind: IdentityKind; survivorId: string }[]): LeadIdentityMatch {
  const emailOwner = owners.find((owner) => owner.kind === 'email')?.survivorId ?? null;
  const phoneOwner = owners.find((owner) => owner.kind === 'phone')?.survivorId ?? null;
  const contactId = emailOwner ?? phoneOwner;
  const holder = (owner: string | null): IdentityHolder => (owner === null ? 'none' : owner === contactId ? 'self' : 'other');
  return { contactId, holders: { email: holder(emailOwner), phone: holder(phoneOwner) } };
}
