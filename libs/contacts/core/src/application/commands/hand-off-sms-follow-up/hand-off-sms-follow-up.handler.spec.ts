import { asAccountId, FixedClock, newId } from '@leadflow/shared-kernel';
import type { LeadCreatedPayload } from '@leadflow/contacts-contracts';
import { Contact } from '../../../domain/contact.aggregate';
import { InMemoryContactStageRepository } from '../../../testing/in-memory-contact-stages';
import { InMemoryContactsStore, InMemorySmsFollowUp } from '../../../testing/in-memory-contacts';
import { HandOffSmsFollowUpCommand } from './hand-off-sms-follow-up.command';
import { HandOffSmsFollowUpHandler } from './hand-off-sms-follow-up.handler';

const ACCOUNT = asAccountId('a0000000-0000-4000-8000-000000000001');

function setup() {
  const store = new InMemoryContactsStore();
  const clock = new FixedClock(new Date('2026-05-14T13:00:10.000Z'));
  const stages = new InMemoryContactStageRepository(store);
  const handler = new HandOffSmsFollowUpHandler(new InMemorySmsFollowUp(store), clock);
  const contact = Contact.create({ phone: '5145550123' }, { id: newId(), accountId: ACCOUNT, systemId: newId(), source: 'api', now: clock.now(), definitions: [] });
  store.contacts.push({ ...contact.snapshot });
  const payload = (overrides: Partial<LeadCreatedPayload> = {}): LeadCreatedPayload => ({
    contact_id: contact.id,
    contact_was_new: true,
    capture_id: newId(),
    activity_id: newId(),
    phone: '+15145550123',
    first_name: 'Élise',
    last_name: null,
    email: null,
    sms_consent: true,
    source_label: null,
    system_id: newId(),
    pipeline_id: null,
    stage_id: null,
    ...overrides,
  });
  return { store, handler, contact, payload, clock, stages };
}

/** public-api-v1 › Endpoints › Leads rule 7: the SMS bot takes over when consent and configuration are in order. */
describe('HandOffSmsFollowUpHandler', () => {
  it('hands a consenting lead over once per lead_created event', async () => {
    const { handler, store, payload, contact, clock } = setup();
    const eventId = newId();
    const event = payload();
    const capturedAt = new Date('2026-05-14T13:00:00.000Z');
    expect(await handler.execute(new HandOffSmsFollowUpCommand(ACCOUNT, eventId, event, capturedAt))).toBe('handed_off');
    expect(await handler.execute(new HandOffSmsFollowUpCommand(ACCOUNT, eventId, event, capturedAt))).toBe('already_handed_off');
    expect(store.handOffs).toEqual([
      { accountId: ACCOUNT, eventId, contactId: contact.id, captureId: event.capture_id, phone: '+15145550123', firstName: 'Élise', capturedAt, handedOffAt: clock.now() },
    ]);
  });

  it('does nothing without consent or phone', async () => {
    const { handler, store, payload } = setup();
    expect(await handler.execute(new HandOffSmsFollowUpCommand(ACCOUNT, newId(), payload({ sms_consent: false }), new Date()))).toBe('skipped_no_consent');
    expect(await handler.execute(new HandOffSmsFollowUpCommand(ACCOUNT, newId(), payload({ phone: '' }), new Date()))).toBe('skipped_no_consent');
    expect(store.handOffs).toEqual([]);
  });

  it('does nothing for a contact deleted or merged meanwhile, nor for another account\'s contact', async () => {
    const { handler, store, payload } = setup();
    expect(await handler.execute(new HandOffSmsFollowUpCommand(ACCOUNT, newId(), payload({ contact_id: newId() }), new Date()))).toBe('skipped_contact_gone');
    const otherAccount = asAccountId('a0000000-0000-4000-8000-000000000002');
    expect(await handler.execute(new HandOffSmsFollowUpCommand(otherAccount, newId(), payload(), new Date()))).toBe('skipped_contact_gone');
    store.contacts[0].mergedIntoId = newId();
    expect(await handler.execute(new HandOffSmsFollowUpCommand(ACCOUNT, newId(), payload(), new Date()))).toBe('skipped_contact_gone');
    expect(store.handOffs).toEqual([]);
  });

  it('does nothing once a human decision stopped the AI follow-up (a stage move between the capture and the job)', async () => {
    const { handler, store, payload, contact, stages, clock } = setup();
    await stages.setStage(ACCOUNT, contact.id, { pipelineId: newId(), stageId: newId() }, clock.now(), { stopAiFollowUp: true });
    expect(await handler.execute(new HandOffSmsFollowUpCommand(ACCOUNT, newId(), payload(), new Date()))).toBe('skipped_follow_up_stopped');
    expect(store.handOffs).toEqual([]);
  });
});
