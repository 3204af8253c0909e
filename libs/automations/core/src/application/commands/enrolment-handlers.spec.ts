import { asAccountId, FixedClock, newId } from '@leadflow/shared-kernel';
import { EnrolCustomEventCommand } from '@leadflow/automations-contracts';
import { InMemoryJournal, InMemoryUnitOfWork } from '@leadflow/shared-testing/fakes';
import type { AutomationRecordState } from '../ports/automation-store.port';
import { FakeAutomationCollaborators, InMemoryAutomationStore } from '../../testing/in-memory-automations';
import { TriggerAutomationCommand } from './trigger-automation/trigger-automation.command';
import { EnrolCustomEventHandler } from './enrol-custom-event/enrol-custom-event.handler';
import { TriggerAutomationHandler } from './trigger-automation/trigger-automation.handler';

const ACCOUNT = asAccountId(newId());
const ACTOR = { type: 'api_key' as const, id: 'k', name: 'key', via: 'api_key' as const };

function automation(overrides: Partial<AutomationRecordState> = {}): AutomationRecordState {
  const now = new Date('2026-05-01T12:00:00.000Z');
  return { id: newId(), accountId: ACCOUNT, name: 'A', isActive: true, isPublished: true, allowConcurrentRuns: false, trigger: { type: 'manual' }, steps: [], archivedAt: null, createdAt: now, updatedAt: now, ...overrides };
}

describe('enrolment handlers (in-memory ports)', () => {
  let store: InMemoryAutomationStore;
  let outbox: InMemoryJournal;
  let collaborators: FakeAutomationCollaborators;
  let clock: FixedClock;
  const contactId = newId();

  beforeEach(() => {
    store = new InMemoryAutomationStore();
    outbox = new InMemoryJournal();
    collaborators = new FakeAutomationCollaborators();
    clock = new FixedClock(new Date('2026-05-01T12:00:00.000Z'));
    collaborators.contacts.set(contactId, { id: contactId, first_name: 'N', last_name: null, email: 'n@example.com', phone: null, company: null, archived: false });
  });

  const trigger = (automationId: string, eventData: Record<string, unknown> = {}, contact = contactId) =>
    new TriggerAutomationHandler(store, outbox, new InMemoryUnitOfWork(), collaborators, clock).execute(new TriggerAutomationCommand(ACCOUNT, automationId, contact, eventData, ACTOR));

  it('manual trigger: checks automation, contact, inactive, unpublished, no trigger, already enrolled, throttle — in that order', async () => {
    const inactiveUnpublished = automation({ isActive: false, isPublished: false, trigger: null });
    await store.insertAutomations([inactiveUnpublished]);
    await expect(trigger(newId())).rejects.toMatchObject({ code: 'not_found', details: { resource: 'automation' } });
    await expect(trigger(inactiveUnpublished.id, {}, newId())).rejects.toMatchObject({ code: 'not_found', details: { resource: 'contact' } });
    await expect(trigger(inactiveUnpublished.id)).rejects.toMatchObject({ code: 'automation_inactive' });
    inactiveUnpublished.isActive = true;
    await expect(trigger(inactiveUnpublished.id)).rejects.toMatchObject({ code: 'automation_not_published' });
    inactiveUnpublished.isPublished = true;
    await expect(trigger(inactiveUnpublished.id)).rejects.toMatchObject({ code: 'no_trigger' });
    inactiveUnpublished.trigger = { type: 'manual' };
    const created = await trigger(inactiveUnpublished.id);
    expect(created).toMatchObject({ status: 'pending', trigger_type: 'manual_api', retry_count: 0 });
    await expect(trigger(inactiveUnpublished.id, { other: 1 })).rejects.toMatchObject({ code: 'already_enrolled', details: { execution_id: created.id } });
    expect(outbox.events.map((event) => event.type)).toEqual(['automation_execution_requested']);
    expect(store.locks).toEqual(expect.arrayContaining([`automations:trigger:${ACCOUNT}`]));
  });

  it('manual trigger: an archived contact is not found', async () => {
    const target = automation();
    await store.insertAutomations([target]);
    collaborators.contacts.set(contactId, { ...collaborators.contacts.get(contactId)!, archived: true });
    await expect(trigger(target.id)).rejects.toMatchObject({ code: 'not_found', details: { resource: 'contact' } });
  });

  it('EnrolCustomEventCommand: exact-name custom_event automations only, 5-minute dedup per contact and automation', async () => {
    const matching = automation({ trigger: { type: 'custom_event', event: 'inscription' } });
    const otherCase = automation({ trigger: { type: 'custom_event', event: 'Inscription' } });
    const inactive = automation({ isActive: false, trigger: { type: 'custom_event', event: 'inscription' } });
    const archived = automation({ archivedAt: new Date(), trigger: { type: 'custom_event', event: 'inscription' } });
    await store.insertAutomations([matching, otherCase, inactive, archived]);
    const handler = new EnrolCustomEventHandler(store, outbox, new InMemoryUnitOfWork(), clock);
    const enrol = () => handler.execute(new EnrolCustomEventCommand(ACCOUNT, contactId, 'inscription', { a: 1 }, newId()));
    const first = await enrol();
    expect(first.executionIds).toHaveLength(1);
    expect(store.executions[0]).toMatchObject({ automationId: matching.id, triggerType: 'custom_event', eventData: { a: 1 } });
    clock.advance(5 * 60 * 1000 - 1);
    expect(await enrol()).toEqual({ executionIds: [] });
    clock.advance(1); // exactly 5 minutes later: outside the window
    expect((await enrol()).executionIds).toHaveLength(1);
  });
});
