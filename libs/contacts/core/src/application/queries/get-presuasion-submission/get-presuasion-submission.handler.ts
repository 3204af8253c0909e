import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { PresuasionSubmissionView } from '@leadflow/contacts-contracts';
import { PresuasionSubmissionNotFoundError } from '../../../domain/presuasion/presuasion.errors';
import { PresuasionSubmissionsReadModel } from '../../ports/presuasion-submissions.port';
import { GetPresuasionSubmissionQuery } from './get-presuasion-submission.query';

/** See {@link GetPresuasionSubmissionQuery}. */
@QueryHandler(GetPresuasionSubmissionQuery)
export class GetPresuasionSubmissionHandler implements IQueryHandler<GetPresuasionSubmissionQuery> {
  constructor(private readonly reads: PresuasionSubmissionsReadModel) {}

  async execute({ accountId, submissionId }: GetPresuasionSubmissionQuery): Promise<PresuasionSubmissionView> {
    const submission = await this.reads.get(accountId, submissionId);
    if (!submission) throw new PresuasionSubmissionNotFoundError();
    return submission;
  }
}
