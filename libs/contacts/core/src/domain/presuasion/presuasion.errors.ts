import { ResourceNotFoundError } from '@leadflow/shared-kernel';

/** 404 `not_found` (`details.resource` `presuasion_submission`): missing, of another account, or not a UUID (all alike). */
export class PresuasionSubmissionNotFoundError extends ResourceNotFoundError {
  constructor() {
    super('not_found', 'No such presuasion submission.', { resource: 'presuasion_submission' });
  }
}
