import { DomainError, ResourceNotFoundError, ValidationFailedError } from '@leadflow/shared-kernel';

/** 404 `not_found`: no such account (operator API). */
export class AccountNotFoundError extends ResourceNotFoundError {
  constructor() {
    super('not_found', 'No such account.', { resource: 'account' });
  }
}

/** 404 `not_found`: no such API key in the account. */
export class ApiKeyNotFoundError extends ResourceNotFoundError {
  constructor() {
    super('not_found', 'No such API key.', { resource: 'api_key' });
  }
}

/** 400 `validation_error`: `contacts:delete` granted by a member not allowed to delete prospects. */
export class ContactsDeleteGrantError extends ValidationFailedError {
  constructor(field: string) {
    super([{ field, reason: 'grant_not_allowed', message: 'Only a team member allowed to delete prospects can grant contacts:delete.' }]);
  }
}

/** 409 `duplicate_resource`: a name that must be unique in the account is taken. */
export class DuplicateNameError extends DomainError {
  constructor(field: string, value: string) {
    super('duplicate_resource', `${field} "${value}" is already used in this account.`, { field, reason: 'duplicate' });
  }
}
