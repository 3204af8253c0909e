import { DomainError, ResourceNotFoundError } from '@leadflow/shared-kernel';

/** 404 `not_found` (`details.resource` = `account`): no such account. */
export class SandboxAccountNotFoundError extends ResourceNotFoundError {
  constructor() {
    super('not_found', 'No such account.', { resource: 'account' });
  }
}

/** 409 `sandbox_exists`: the live account already has its sandbox (one per live account); `details.sandbox_id` names it. */
export class SandboxExistsError extends DomainError {
  constructor(accountId: string, sandboxId: string | null) {
    super('sandbox_exists', 'This account already has a sandbox account.', { account_id: accountId, sandbox_id: sandboxId });
  }
}

/** 422 `live_account_required`: a sandbox cannot have a sandbox of its own. */
export class LiveAccountRequiredError extends DomainError {
  constructor(accountId: string) {
    super('live_account_required', 'A sandbox is created from a live account; this account is a sandbox.', { account_id: accountId, mode: 'test' });
  }
}

/** 422 `sandbox_required`: only a sandbox account can be reset; a live account's data is never emptied. */
export class SandboxRequiredError extends DomainError {
  constructor(accountId: string) {
    super('sandbox_required', 'Only a sandbox account can be reset; this account is live.', { account_id: accountId, mode: 'live' });
  }
}
