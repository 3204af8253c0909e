import type { CustomFieldValue } from '@leadflow/contacts-contracts';
import type { ContactAddress, ContactState } from './contact.aggregate';
import type { IdentityKind } from './contact-identity';

/** A stored identity (email or phone, primary or secondary) of the contact being merged. */
export interface MergedIdentity {
  kind: IdentityKind;
  value: string;
  isPrimary: boolean;
}

/** An identity as the survivor holds it after the merge. */
export interface MovedIdentity {
  kind: IdentityKind;
  value: string;
  /** True when it fills the survivor's empty primary email or phone; else a secondary detail. */
  primary: boolean;
}

/** What a merge does to the two contacts' own rows (contacts context; other contexts move their rows themselves). */
export interface ContactMergePlan {
  /** The survivor after the merge (its `updatedAt` is `now` when anything changed). */
  survivor: ContactState;
  /** The merged contact with its email and phone handed over (null); `Contact.mergeInto` then marks it absorbed. */
  merged: ContactState;
  /** Public names of the fields where the survivor kept its value and the merged contact's other value was dropped. */
  kept: string[];
  /** Public names of the survivor's empty fields filled from the merged contact (`custom_fields.<definition id>` per key). */
  filled: string[];
  /** Every identity of the merged contact, now the survivor's. */
  identities: MovedIdentity[];
  /** True when the merged contact's pipeline stage (its deal) became the survivor's. */
  dealMoved: boolean;
}

const TEXT_FIELDS = [
  ['first_name', 'firstName'],
  ['last_name', 'lastName'],
  ['company', 'company'],
  ['notes', 'notes'],
  ['source_label', 'sourceLabel'],
] as const;

const ADDRESS_FIELDS: [string, keyof ContactAddress][] = [
  ['address', 'address'],
  ['postal_code', 'postalCode'],
  ['address_place_id', 'addressPlaceId'],
  ['street', 'street'],
  ['city', 'city'],
  ['sector', 'sector'],
  ['province', 'province'],
  ['country', 'country'],
];

/**
 * The public merge's field rules (issue 15, item 6; the spirit of lead capture rule 2): the survivor's
 * filled values are kept, its empty ones are filled from the merged contact.
 * - names, company, notes, source label, deal value, each address part, each custom field key
 *   (survivor's keys win, the merged contact's other keys are added), first-touch attribution (when the
 *   survivor has none), sales rep and expected close date;
 * - `is_priority`: true when either is;
 * - email and phone: every identity of the merged contact moves to the survivor; its primary email
 *   (phone) becomes the survivor's primary one when the survivor has none, every other one a secondary
 *   detail (identities stay unique per account: the merged contact's row gives them up);
 * - the deal: the merged contact's pipeline stage becomes the survivor's when the survivor is in no
 *   stage and not archived (with the pipeline, and the sales rep and close date when the survivor has
 *   none); otherwise the survivor keeps its own (`stage_id` kept).
 * Pure: nothing is written here, and the merged contact is not marked absorbed yet (`Contact.mergeInto`).
 */
export function planContactMerge(merged: ContactState, survivor: ContactState, identities: readonly MergedIdentity[], now: Date): ContactMergePlan {
  const next: ContactState = {
    ...survivor,
    customFields: { ...survivor.customFields },
    addressParts: { ...survivor.addressParts },
    attribution: { ...survivor.attribution },
  };
  const kept: string[] = [];
  const filled: string[] = [];
  const take = <T>(name: string, mine: T | null, theirs: T | null, same: (a: T, b: T) => boolean = (a, b) => a === b): T | null => {
    if (theirs === null) return mine;
    if (mine === null) {
      filled.push(name);
      return theirs;
    }
    if (!same(mine, theirs)) kept.push(name);
    return mine;
  };

  for (const [name, field] of TEXT_FIELDS) next[field] = take(name, survivor[field], merged[field]);
  next.email = take('email', survivor.email, merged.email);
  next.phone = take('phone', survivor.phone, merged.phone);
  next.dealValueCents = take('deal_value', survivor.dealValueCents, merged.dealValueCents);
  for (const [name, part] of ADDRESS_FIELDS) next.addressParts[part] = take(name, survivor.addressParts[part], merged.addressParts[part]);
  for (const [definitionId, value] of Object.entries(merged.customFields)) {
    const mine: CustomFieldValue | null = survivor.customFields[definitionId] ?? null;
    const chosen = take(`custom_fields.${definitionId}`, mine, value);
    if (chosen !== null) next.customFields[definitionId] = chosen;
  }
  if (!survivor.isPriority && merged.isPriority) {
    next.isPriority = true;
    filled.push('is_priority');
  }
  if (Object.keys(merged.attribution).length > 0) {
    if (Object.keys(survivor.attribution).length === 0) {
      next.attribution = { ...merged.attribution };
      filled.push('attribution');
    } else if (JSON.stringify(survivor.attribution) !== JSON.stringify(merged.attribution)) kept.push('attribution');
  }

  let dealMoved = false;
  if (merged.stageId !== null) {
    if (survivor.stageId === null && survivor.archivedAt === null) {
      dealMoved = true;
      next.pipelineId = merged.pipelineId;
      next.stageId = merged.stageId;
      filled.push('stage_id');
    } else if (survivor.stageId !== merged.stageId) kept.push('stage_id');
  }
  next.salesRepId = take('sales_rep_id', survivor.salesRepId, merged.salesRepId);
  next.expectedCloseDate = take('expected_close_date', survivor.expectedCloseDate, merged.expectedCloseDate);

  const moved: MovedIdentity[] = identities.map((identity) => ({
    kind: identity.kind,
    value: identity.value,
    primary: identity.isPrimary && survivor[identity.kind] === null && next[identity.kind] === identity.value,
  }));

  const changed = filled.length > 0;
  return {
    survivor: changed ? { ...next, updatedAt: now } : survivor,
    merged: { ...merged, email: null, phone: null },
    kept,
    filled,
    identities: moved,
    dealMoved,
  };
}
