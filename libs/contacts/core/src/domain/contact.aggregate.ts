import { AccountId, centsToDollars, FieldViolation, ValidationFailedError } from '@leadflow/shared-kernel';
import type { ContactChanges, CustomFieldValue } from '@leadflow/contacts-contracts';
import {
  hasIdentity,
  Identity,
  IDENTITY_FIELDS,
  normalizeContactEmail,
  normalizeContactPhone,
  normalizeText,
  primaryIdentities,
} from './contact-identity';
import { ContactArchivedError, InvalidCustomFieldsError, NoFieldsError } from './contacts.errors';
import { CustomFieldDefinition, mergeCustomFields, resolveCustomFields } from './custom-fields';
import { ContactState, EMPTY_ADDRESS } from './contact-state';
import { dealValueToCents } from './deal-value';
import type { IgnoredFields } from './lead-capture/ignored-fields';
import { enrichContactWithLead, IdentityHolder, LeadContactData, LeadEnrichment, LeadPlacement } from './lead-capture/lead-enrichment';
import { NO_ENGAGEMENT, scoreLead } from './lead-score/lead-score';

export { EMPTY_ADDRESS } from './contact-state';
export type { ContactAddress, ContactState } from './contact-state';

/** Fields a create accepts (public names mapped to camelCase); absent members are undefined. */
export interface NewContactInput {
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  phone?: string | null;
  company?: string | null;
  /** Dollars. */
  dealValue?: number | null;
  customFields?: Record<string, unknown> | null;
}

/** Fields PATCH /v1/contacts/{id} accepts; undefined = absent, null = clear. */
export interface ContactPatch extends NewContactInput {
  isPriority?: boolean;
  notes?: string | null;
}

export interface NewContactContext {
  id: string;
  accountId: AccountId;
  /** Defaults to '' until {@link Contact.placeInSystem}. */
  systemId?: string;
  source: string;
  now: Date;
  definitions: readonly CustomFieldDefinition[];
  /** SMS consent given with the creation (initial lead score); default: true for `fromLead` (lead capture requires it), false for `create`. */
  smsConsent?: boolean;
}

/**
 * The score of a contact being created: its profile, source and attribution, the consent the creation
 * carries, a fresh last touch and no engagement yet (domain/lead-score).
 */
function withInitialScore(state: Omit<ContactState, 'score' | 'scoreReviewAt'>, inbound: boolean, smsConsent: boolean): ContactState {
  const { score, reviewAt } = scoreLead(
    {
      profile: state,
      consent: { sms: smsConsent, email: false },
      inbound,
      attribution: state.attribution,
      engagement: NO_ENGAGEMENT,
      createdAt: state.createdAt,
      disqualified: false,
    },
    state.createdAt,
  );
  return { ...state, score, scoreReviewAt: reviewAt };
}

/** The public value of each field `lead_updated` reports changes of. */
function publicFields(state: ContactState): Record<string, unknown> {
  return {
    first_name: state.firstName,
    last_name: state.lastName,
    email: state.email,
    phone: state.phone,
    company: state.company,
    deal_value: centsToDollars(state.dealValueCents),
    is_priority: state.isPriority,
    notes: state.notes,
    custom_fields: state.customFields,
  };
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const left = a as Record<string, unknown>;
    const right = b as Record<string, unknown>;
    const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
    return [...keys].every((key) => left[key] === right[key]);
  }
  return a === b;
}

/**
 * The contact aggregate: creation and update rules of public-api-v1 › Contact and PATCH
 * /v1/contacts/{id}, and the operator lifecycle (archive, merge, disqualify).
 */
export class Contact {
  private constructor(private state: ContactState) {}

  static restore(state: ContactState): Contact {
    return new Contact({ ...state, customFields: { ...state.customFields } });
  }

  /**
   * A new contact (POST /v1/contacts). Email or phone is required. Throws 400 `validation_error`
   * (`email` `invalid_format`, `phone` `invalid_phone`/`too_long`, `deal_value` `invalid_value`,
   * `email`+`phone` `identity_required`) then 400 `invalid_custom_fields`.
   */
  static create(input: NewContactInput, context: NewContactContext): Contact {
    const violations: FieldViolation[] = [];
    const email = normalizeContactEmail(input.email ?? null);
    const phone = normalizeContactPhone(input.phone ?? null);
    if (email.violation) violations.push(email.violation);
    if (phone.violation) violations.push(phone.violation);
    if (!email.violation && !phone.violation && email.value === null && phone.value === null) {
      violations.push(
        { field: 'email', reason: 'identity_required', message: 'email or phone is required.' },
        { field: 'phone', reason: 'identity_required', message: 'email or phone is required.' },
      );
    }
    const dealValueCents = Contact.dealValueOf(input.dealValue, violations);
    if (violations.length > 0) throw new ValidationFailedError(violations);
    const customFields = Contact.customFieldsOf({}, input.customFields, context.definitions);
    const state: Omit<ContactState, 'score' | 'scoreReviewAt'> = {
      id: context.id,
      accountId: context.accountId,
      firstName: normalizeText(input.firstName) ?? null,
      lastName: normalizeText(input.lastName) ?? null,
      email: email.value ?? null,
      phone: phone.value ?? null,
      company: normalizeText(input.company) ?? null,
      dealValueCents: dealValueCents ?? null,
      customFields,
      isPriority: false,
      notes: null,
      source: context.source,
      systemId: context.systemId ?? '',
      pipelineId: null,
      stageId: null,
      salesRepId: null,
      attribution: {},
      addressParts: { ...EMPTY_ADDRESS },
      sourceLabel: null,
      expectedCloseDate: null,
      archivedAt: null,
      mergedIntoId: null,
      mergedAt: null,
      disqualifiedAt: null,
      createdAt: context.now,
      updatedAt: context.now,
    };
    return new Contact(withInitialScore(state, false, context.smsConsent ?? false));
  }

  get id(): string {
    return this.state.id;
  }

  get snapshot(): Readonly<ContactState> {
    return this.state;
  }

  get isMerged(): boolean {
    return this.state.mergedIntoId !== null;
  }

  /** Sets the System the contact belongs to (resolved after the input is validated). */
  placeInSystem(systemId: string): void {
    this.state = { ...this.state, systemId };
  }

  /**
   * A contact created by lead capture: the capture's identity, custom fields (keyed by id), address,
   * first-touch attribution, source label and notes, placed in the resolved pipeline stage, with its
   * initial lead score (a funnel contact; SMS consent unless `context.smsConsent` is false).
   */
  static fromLead(lead: LeadContactData, placement: LeadPlacement, context: NewContactContext): Contact {
    const state: Omit<ContactState, 'score' | 'scoreReviewAt'> = {
      id: context.id,
      accountId: context.accountId,
      firstName: lead.firstName,
      lastName: lead.lastName,
      email: lead.email,
      phone: lead.phone,
      company: null,
      dealValueCents: placement.dealValueCents,
      customFields: { ...lead.customFields },
      isPriority: false,
      notes: lead.notes,
      source: context.source,
      systemId: context.systemId ?? '',
      pipelineId: placement.stageId === null ? null : placement.pipelineId,
      stageId: placement.stageId,
      salesRepId: placement.salesRepId,
      attribution: lead.attribution ? { ...lead.attribution } : {},
      addressParts: { ...EMPTY_ADDRESS, ...lead.address },
      sourceLabel: lead.sourceLabel,
      expectedCloseDate: placement.expectedCloseDate,
      archivedAt: null,
      mergedIntoId: null,
      mergedAt: null,
      disqualifiedAt: null,
      createdAt: context.now,
      updatedAt: context.now,
    };
    return new Contact(withInitialScore(state, true, context.smsConsent ?? true));
  }

  /**
   * Lead capture on this existing contact (see {@link enrichContactWithLead}): fills what is empty,
   * refreshes custom fields, names the pipeline members kept. Returns the identities to write and
   * whether anything changed.
   */
  enrichWithLead(
    lead: LeadContactData,
    placement: LeadPlacement,
    holders: { email: IdentityHolder; phone: IdentityHolder },
    ignored: IgnoredFields,
    now: Date,
  ): Omit<LeadEnrichment, 'next'> & { changed: boolean } {
    const { next, ...identities } = enrichContactWithLead(this.state, lead, placement, holders, ignored, now);
    const { updatedAt: _before, ...previous } = this.state;
    const { updatedAt: _after, ...current } = next;
    const changed = JSON.stringify(previous) !== JSON.stringify(current);
    if (changed) this.state = next;
    return { ...identities, changed };
  }

  /** Primary email and phone identities. */
  identities(): Identity[] {
    return primaryIdentities(this.state);
  }

  /**
   * Applies PATCH /v1/contacts/{id} rules 1, 2, 4 and 5 and returns the changed public fields (empty
   * when every value was already the same). Throws, changing nothing: 400 `no_fields`; 400
   * `validation_error` (`invalid_format`, `invalid_phone`, `too_long`, `invalid_value`,
   * `identity_required` on each field cleared); 400 `invalid_custom_fields`; 422
   * `business_rule_violation` `contact_archived` when an archived contact's deal value would change.
   */
  update(patch: ContactPatch, definitions: readonly CustomFieldDefinition[], now: Date): ContactChanges {
    if (Object.values(patch).every((value) => value === undefined)) throw new NoFieldsError();
    const violations: FieldViolation[] = [];
    const next: ContactState = { ...this.state };
    if (patch.firstName !== undefined) next.firstName = normalizeText(patch.firstName) ?? null;
    if (patch.lastName !== undefined) next.lastName = normalizeText(patch.lastName) ?? null;
    if (patch.company !== undefined) next.company = normalizeText(patch.company) ?? null;
    if (patch.email !== undefined) {
      const email = normalizeContactEmail(patch.email);
      if (email.violation) violations.push(email.violation);
      else next.email = email.value;
    }
    if (patch.phone !== undefined) {
      const phone = normalizeContactPhone(patch.phone);
      if (phone.violation) violations.push(phone.violation);
      else next.phone = phone.value;
    }
    if (patch.dealValue !== undefined) next.dealValueCents = Contact.dealValueOf(patch.dealValue, violations) ?? null;
    if (patch.isPriority !== undefined) next.isPriority = patch.isPriority;
    if (patch.notes !== undefined) next.notes = patch.notes === null || patch.notes.length === 0 ? null : patch.notes;
    if (violations.length === 0 && !hasIdentity(next)) {
      const sent: Record<(typeof IDENTITY_FIELDS)[number], unknown> = {
        first_name: patch.firstName,
        last_name: patch.lastName,
        email: patch.email,
        phone: patch.phone,
      };
      for (const field of IDENTITY_FIELDS) {
        if (sent[field] !== undefined) {
          violations.push({ field, reason: 'identity_required', message: 'A contact keeps at least one of first_name, last_name, email, phone.' });
        }
      }
    }
    if (violations.length > 0) throw new ValidationFailedError(violations);
    if (patch.customFields !== undefined) next.customFields = Contact.customFieldsOf(this.state.customFields, patch.customFields, definitions);
    if (this.state.archivedAt !== null && next.dealValueCents !== this.state.dealValueCents) throw new ContactArchivedError('deal_value');

    const before = publicFields(this.state);
    const after = publicFields(next);
    const changes: ContactChanges = {};
    for (const field of Object.keys(after)) {
      if (!sameValue(before[field], after[field])) changes[field] = { previous: before[field], current: after[field] };
    }
    next.updatedAt = now;
    this.state = next;
    return changes;
  }

  /** Sets `archived_at`; false when already archived. */
  archive(now: Date): boolean {
    if (this.state.archivedAt) return false;
    this.state = { ...this.state, archivedAt: now, updatedAt: now };
    return true;
  }

  /** Clears `archived_at`; false when not archived. */
  unarchive(now: Date): boolean {
    if (!this.state.archivedAt) return false;
    this.state = { ...this.state, archivedAt: null, updatedAt: now };
    return true;
  }

  /** Sets `disqualified_at`; false when already disqualified. */
  disqualify(now: Date): boolean {
    if (this.state.disqualifiedAt) return false;
    this.state = { ...this.state, disqualifiedAt: now, updatedAt: now };
    return true;
  }

  /** Marks the contact absorbed by `survivorId` (a different, unmerged contact: checked by the caller). */
  mergeInto(survivorId: string, now: Date): void {
    if (survivorId === this.state.id) {
      throw new ValidationFailedError([{ field: 'into_contact_id', reason: 'invalid_value', message: 'A contact cannot be merged into itself.' }]);
    }
    this.state = { ...this.state, mergedIntoId: survivorId, mergedAt: now, updatedAt: now };
  }

  /** Undoes a merge; false when the contact was not merged. */
  unmerge(now: Date): boolean {
    if (!this.state.mergedIntoId) return false;
    this.state = { ...this.state, mergedIntoId: null, mergedAt: null, updatedAt: now };
    return true;
  }

  private static dealValueOf(dollars: number | null | undefined, violations: FieldViolation[]): number | null | undefined {
    if (dollars === undefined || dollars === null) return dollars;
    const cents = dealValueToCents(dollars);
    if (cents === null) {
      violations.push({ field: 'deal_value', reason: 'invalid_value', message: 'deal_value must be a positive amount with at most two decimals.' });
    }
    return cents;
  }

  /** Rule 2: merge into `current`; null clears all; unknown keys or bad values: 400 `invalid_custom_fields`. */
  private static customFieldsOf(
    current: Readonly<Record<string, CustomFieldValue>>,
    input: Record<string, unknown> | null | undefined,
    definitions: readonly CustomFieldDefinition[],
  ): Record<string, CustomFieldValue> {
    if (input === undefined) return { ...current };
    if (input === null) return {};
    const resolved = resolveCustomFields(definitions, input);
    if (resolved.violations.length > 0) throw new InvalidCustomFieldsError(resolved.violations);
    return mergeCustomFields(current, resolved);
  }
}
