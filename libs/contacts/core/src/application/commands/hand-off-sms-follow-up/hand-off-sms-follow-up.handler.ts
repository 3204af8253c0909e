import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '@leadflow/shared-kernel';
import { SmsFollowUpPort } from '../../ports/lead-capture.ports';
import { HandOffSmsFollowUpCommand, SmsHandOffOutcome } from './hand-off-sms-follow-up.command';

/**
 * The SMS bot takes over a captured lead when consent and configuration are in order: the event
 * carries SMS consent and a phone, the contact still exists (not deleted, not absorbed by a merge), and
 * no human decision has stopped the AI follow-up yet (a stage move through the API or the dashboard
 * between the capture and the job: `skipped_follow_up_stopped`).
 * One hand-off per event, whatever the number of deliveries of the job. The contact's state is read and
 * the hand-off written together by {@link SmsFollowUpPort.handOff} (one statement): no stage move can slip
 * between the check and the write.
 */
@CommandHandler(HandOffSmsFollowUpCommand)
export class HandOffSmsFollowUpHandler implements ICommandHandler<HandOffSmsFollowUpCommand> {
  constructor(
    private readonly followUp: SmsFollowUpPort,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, eventId, payload, capturedAt }: HandOffSmsFollowUpCommand): Promise<SmsHandOffOutcome> {
    if (payload.sms_consent !== true || typeof payload.phone !== 'string' || payload.phone.length === 0) return 'skipped_no_consent';
    const { contact, recorded } = await this.followUp.handOff(accountId, {
      eventId,
      contactId: payload.contact_id,
      captureId: payload.capture_id,
      phone: payload.phone,
      firstName: payload.first_name,
      capturedAt,
      handedOffAt: this.clock.now(),
    });
    if (recorded) return 'handed_off';
    if (!contact || contact.mergedIntoId !== null) return 'skipped_contact_gone';
    if (contact.aiFollowUpStoppedAt !== null) return 'skipped_follow_up_stopped';
    return 'already_handed_off';
  }
}
