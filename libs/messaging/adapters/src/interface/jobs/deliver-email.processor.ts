import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Job, UnrecoverableError } from 'bullmq';
import { asAccountId, DomainError } from '@leadflow/shared-kernel';
import { DeliverOutgoingEmailCommand, DeliveryOutcome } from '@leadflow/messaging-core';
import { eventLogFields, STALLED_JOB_SETTINGS } from '@leadflow/shared-platform';
import { DeliverEmailJob, EMAIL_DELIVERY_QUEUE } from './email-delivery.job';

/** Thrown so BullMQ retries the job after its backoff. */
class RetryDelivery extends Error {}

/**
 * Runs one delivery attempt per job run. A transient failure fails the run so BullMQ retries it with
 * exponential backoff; on the last of the job's attempts it fails the email instead. A permanent
 * failure fails the email and the job without retry (UnrecoverableError). The email's state, not the
 * job, is the truth: a run for an email already `sent` or `failed` does nothing.
 */
@Processor(EMAIL_DELIVERY_QUEUE, { ...STALLED_JOB_SETTINGS, concurrency: 8 })
export class DeliverEmailProcessor extends WorkerHost {
  private readonly logger = new Logger(DeliverEmailProcessor.name);

  constructor(private readonly commands: CommandBus) {
    super();
  }

  async process(job: Job<DeliverEmailJob>): Promise<DeliveryOutcome> {
    const { accountId, emailId } = job.data;
    // request_id, account_id, event_id: the api request that queued the email, traced through the outbox (issue 17, item 4).
    const trace = { ...eventLogFields({ id: job.data.eventId ?? null, accountId, requestId: job.data.requestId ?? null }), email_id: emailId };
    const finalAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    let outcome: DeliveryOutcome;
    try {
      outcome = await this.commands.execute(new DeliverOutgoingEmailCommand(asAccountId(accountId), emailId, finalAttempt));
    } catch (error) {
      if (error instanceof DomainError) throw new UnrecoverableError(error.code);
      throw error; // database or Redis trouble: retried
    }
    switch (outcome.result) {
      case 'sent':
        this.logger.log({ ...trace, attempts: outcome.attempts }, 'Email sent');
        return outcome;
      case 'retry':
        this.logger.warn({ ...trace, attempts: outcome.attempts, error: outcome.error }, 'Email delivery failed (transient); retrying');
        throw new RetryDelivery(outcome.error);
      case 'failed':
        this.logger.warn({ ...trace, attempts: outcome.attempts, error: outcome.error, permanent: outcome.permanent }, 'Email delivery failed');
        throw new UnrecoverableError(outcome.error);
      case 'busy':
        if (finalAttempt) return outcome; // the worker holding the claim settles it
        throw new RetryDelivery('The email is being sent by another worker');
      case 'skipped':
        return outcome;
    }
  }
}
