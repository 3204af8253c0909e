import { Command } from '@nestjs/cqrs';

/** Worker: runs (or resumes) one execution; a no-op when another run holds it or it is finished. */
export class RunExecutionCommand extends Command<{ status: string }> {
  constructor(
    readonly accountId: string,
    readonly executionId: string,
  ) {
    super();
  }
}
