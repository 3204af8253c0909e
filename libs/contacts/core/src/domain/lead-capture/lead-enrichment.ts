import type { CustomFieldValue } from '@leadflow/contacts-contracts';
import type { ContactAddress, ContactState } from '../contact-state';
import type { IgnoredFields } from './ignored-fields';
import type { PipelineMember } from './lead-capture-input';

/** What a capture brings to a contact (already validated and normalised). */
export interface LeadContactData {
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  /** E.164; null when the person came without a phone (presuasion submissions; lead capture always has one). */
  phone: string | null;
  /** Keyed by definition id. */
  customFields: Record<string, CustomFieldValue>;
  address: Partial<ContactAddress>;
  attribution: Record<string, unknown> | null;
  sourceLabel: string | null;
  notes: string | null;
}

/** The pipeline placement the request resolved to. */
export interface LeadPlacement {
  pipelineId: string | null;
  stageId: string | null;
  dealValueCents: number | null;
  expectedCloseDate: string | null;
  /** The sales rep found for `assigned_sales_rep_email`, or null. */
  salesRepId: string | null;
  /** Pipeline members sent with a usable value. */
  sent: readonly PipelineMember[];
}

/** Who already holds the request's email or phone: nobody, this contact, or another one. */
export type IdentityHolder = 'none' | 'self' | 'other';

export interface LeadEnrichment {
  next: ContactState;
  /** Identities to write for the contact: primary when it had none of that kind, else a secondary phone. */
  primaryEmail: string | null;
  primaryPhone: string | null;
  secondaryPhone: string | null;
}

/**
 * Rules 1–3 of public-api-v1 › Endpoints › Leads on an existing contact:
 * - filled core fields are never overwritten (names, email, phone, pipeline and stage, deal value,
 *   expected close date, sales rep, notes, source label, each address part); empty ones are filled;
 * - `custom_fields` are refreshed: a key sent replaces the stored value, a new key is added;
 * - a phone the contact does not have is kept as a secondary phone (a primary one when it has none),
 *   unless another contact holds it (email wins: nothing moves between contacts); an email fills an
 *   empty primary email only;
 * - first-touch attribution: set only when the contact has none;
 * - pipeline block members not taken because the contact keeps its own values are named
 *   `existing_contact_kept` (an archived contact keeps all of them).
 */
export function enrichContactWithLead(
  state: Readonly<ContactState>,
  lead: LeadContactData,
  placement: LeadPlacement,
  holders: { email: IdentityHolder; phone: IdentityHolder },
  ignored: IgnoredFields,
  now: Date,
): LeadEnrichment {
  const next: ContactState = { ...state, customFields: { ...state.customFields, ...lead.customFields }, addressParts: { ...state.addressParts } };
  next.firstName ??= lead.firstName;
  next.lastName ??= lead.lastName;
  next.notes ??= lead.notes;
  next.sourceLabel ??= lead.sourceLabel;
  for (const [part, value] of Object.entries(lead.address) as [keyof ContactAddress, string][]) {
    if (next.addressParts[part] === null) next.addressParts[part] = value;
  }
  if (Object.keys(next.attribution).length === 0 && lead.attribution) next.attribution = { ...lead.attribution };

  let primaryEmail: string | null = null;
  if (state.email === null && lead.email !== null && holders.email === 'none') primaryEmail = next.email = lead.email;
  let primaryPhone: string | null = null;
  let secondaryPhone: string | null = null;
  if (holders.phone === 'none' && lead.phone !== null) {
    if (state.phone === null) primaryPhone = next.phone = lead.phone;
    else if (state.phone !== lead.phone) secondaryPhone = lead.phone;
  }

  const archived = state.archivedAt !== null;
  const kept = (member: PipelineMember) => {
    if (placement.sent.includes(member)) ignored.add(`pipeline.${member}`, 'existing_contact_kept');
  };
  if (state.stageId === null && !archived && placement.stageId !== null) {
    next.pipelineId = placement.pipelineId;
    next.stageId = placement.stageId;
  } else if (state.stageId !== null || archived) {
    kept('pipeline_slug');
    kept('stage_slug');
  }
  if (placement.dealValueCents !== null) {
    if (state.dealValueCents === null && !archived) next.dealValueCents = placement.dealValueCents;
    else kept('deal_value');
  }
  if (placement.expectedCloseDate !== null) {
    if (state.expectedCloseDate === null && !archived) next.expectedCloseDate = placement.expectedCloseDate;
    else kept('expected_close_date');
  }
  if (placement.salesRepId !== null) {
    if (state.salesRepId === null && !archived) next.salesRepId = placement.salesRepId;
    else kept('assigned_sales_rep_email');
  }
  next.updatedAt = now;
  return { next, primaryEmail, primaryPhone, secondaryPhone };
}
