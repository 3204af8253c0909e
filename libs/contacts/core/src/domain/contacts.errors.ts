import {
  BusinessRuleViolationError,
  DomainError,
  FieldViolation,
  ResourceNotFoundError,
} from '@leadflow/shared-kernel';
import type { ContactView } from '@leadflow/contacts-contracts';

/** 404 `not_found`: the contact is missing, merged into another, or belongs to another account (all alike). */
export class ContactNotFoundError extends ResourceNotFoundError {
  constructor(field?: string) {
    super('not_found', 'No such contact.', field ? { resource: 'contact', field } : { resource: 'contact' });
  }
}

/** 404 `not_found`: no such tag in the account. */
export class TagNotFoundError extends ResourceNotFoundError {
  constructor() {
    super('not_found', 'No such tag.', { resource: 'tag' });
  }
}

/** 400 `no_fields`: a PATCH body without any field (PATCH /v1/contacts/{id} rule 1). */
export class NoFieldsError extends DomainError {
  constructor() {
    super('no_fields', 'Send at least one field to update.', null);
  }
}

/** 400 `invalid_custom_fields` with `details` an array of `{ field: "custom_fields.<key>", reason, message }`. */
export class InvalidCustomFieldsError extends DomainError {
  constructor(violations: FieldViolation[]) {
    super('invalid_custom_fields', 'Some custom fields are unknown or invalid.', violations);
  }
}

/**
 * 409 `duplicate_contact` (POST /v1/contacts): the person already exists. The existing contact is
 * rendered beside the envelope as `data`; `details.conflicting_fields` lists `email` and/or `phone`.
 */
export class DuplicateContactError extends DomainError {
  constructor(existing: ContactView, conflictingFields: string[]) {
    super(
      'duplicate_contact',
      'A contact with this email or phone already exists.',
      { conflicting_fields: conflictingFields },
      { extra: { data: existing } },
    );
  }
}

/** 409 `duplicate_resource` on create: email and phone belong to two different contacts (no contact returned). */
export class IdentitiesOfTwoContactsError extends DomainError {
  constructor(conflictingFields: string[] = ['email', 'phone']) {
    super('duplicate_resource', 'The email and the phone belong to two different contacts.', {
      conflicting_fields: conflictingFields,
    });
  }
}

/** 409 `duplicate_resource` on update: the email or phone is held by another contact (`details.conflicting_field`). */
export class IdentityTakenError extends DomainError {
  constructor(readonly field: 'email' | 'phone') {
    super('duplicate_resource', `This ${field} belongs to another contact.`, { conflicting_field: field });
  }
}

/** 409 `duplicate_resource`: a tag with this name exists in the account. */
export class TagNameTakenError extends DomainError {
  constructor(name: string) {
    super('duplicate_resource', `A tag named "${name}" already exists.`, { field: 'name', conflicting_field: 'name' });
  }
}

/** 409 `duplicate_resource`: a custom field definition with this name exists in the account. */
export class CustomFieldNameTakenError extends DomainError {
  constructor(name: string) {
    super('duplicate_resource', `A custom field named "${name}" already exists.`, { field: 'name', conflicting_field: 'name' });
  }
}

/** 422 `system_not_found` (`details.field` `system_id`): the System is not one of the account's. */
export class SystemNotFoundError extends DomainError {
  constructor() {
    super('system_not_found', 'No such System in this account.', { field: 'system_id' });
  }
}

/** 409 `tag_managed_by_service` (`details.tag_ids`): campaign tags are attached and detached by the service only. */
export class TagManagedByServiceError extends DomainError {
  constructor(tagIds: string[]) {
    super('tag_managed_by_service', 'Campaign tags are managed by the service.', { field: 'tag_ids', tag_ids: tagIds });
  }
}

/** 422 `business_rule_violation` reason `contact_archived` (`details.field` `deal_value`). */
export class ContactArchivedError extends BusinessRuleViolationError {
  constructor(field: string) {
    super('contact_archived', 'The contact is archived: its deal value cannot change.', { field });
  }
}

/** The 422 codes of lead capture, rendered in the simplified body (public-api-v1 › Endpoints › Leads rule 9). */
export type LeadCaptureRejectionCode = 'invalid_phone' | 'missing_consent' | 'invalid_email' | 'invalid_payload' | 'pipeline_not_found' | 'stage_not_found';

/**
 * 422 refusal of a lead capture in the simplified body: no `type`, no `doc_url`, `details` an array of
 * `{ field, reason }` (field `""` when the body is not an object); the message echoes the invalid scalar
 * value (at most 120 characters of it). Nothing is written.
 */
export class LeadCaptureRejectedError extends DomainError {
  constructor(code: LeadCaptureRejectionCode, message: string, violations: { field: string; reason: string }[]) {
    super(code, message, violations, { simplified: true });
  }
}

/** 403 `terms_acceptance_required` (standard envelope): the account has not accepted the API terms (Authentication 5). */
export class TermsAcceptanceRequiredError extends DomainError {
  constructor() {
    super('terms_acceptance_required', 'The organisation must accept the API terms before capturing leads.', null);
  }
}
