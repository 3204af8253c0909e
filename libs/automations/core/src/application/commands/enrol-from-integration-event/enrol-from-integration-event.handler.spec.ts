import { Actor, asAccountId, FixedClock, newId, SYSTEM_ACTOR, UnitOfWork } from '@leadflow/shared-kernel';
import { CONTACT_EVENTS, STAGE_CHANGED_EVENT } from '@leadflow/contacts-contracts';
import { AUTOMATION_EVENTS } from '@leadflow/automations-contracts';
import { InMemoryJournal } from '@leadflow/shared-testing/fakes';
import type { StoredTrigger } from '../../../domain/automation-definition';
import type { AutomationRecordState, NewExecution } from '../../ports/automation-store.port';
import type { AutomationContact } from '../../ports/automation-effects.port';
import { FakeAutomationCollaborators, InMemoryAutomationStore } from '../../../testing/in-memory-automations';
import { EnrolFromIntegrationEventCommand } from './enrol-from-integration-event.command';
import { EnrolFromIntegrationEventHandler } from './enrol-from-integration-event.handler';

const ACCOUNT = asAccountId(newId());
const PIPELINE = newId();
const OTHER_PIPELINE = newId();
const STAGE = newId();
const OTHER_STAGE = newId();

/** A unit of work that counts its (outermost) transactions and says whether one is open. */
class CountingUnitOfWork extends UnitOfWork {
  runs = 0;
  open = false;

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.open) return work();
    this.runs += 1;
    this.open = true;
    try {
      return await work();
    } finally {
      this.open = false;
    }
  }
}

/** The in-memory store, recording each call with whether a transaction was open then. */
class RecordingStore extends InMemoryAutomationStore {
  readonly calls: { method: string; inTransaction: boolean }[] = [];

  constructor(private readonly unitOfWork: CountingUnitOfWork) {
    super();
  }

  override async findTriggered(accountId: Parameters<InMemoryAutomationStore['findTriggered']>[0], type: StoredTrigger['type'], event?: string) {
    this.calls.push({ method: `findTriggered:${type}`, inTransaction: this.unitOfWork.open });
    return super.findTriggered(accountId, type, event);
  }

  override async lock(key: string): Promise<void> {
    this.calls.push({ method: 'lock', inTransaction: this.unitOfWork.open });
    return super.lock(key);
  }

  override async insertExecution(row: NewExecution): Promise<boolean> {
    this.calls.push({ method: 'insertExecution', inTransaction: this.unitOfWork.open });
    return super.insertExecution(row);
  }
}

class RecordingCollaborators extends FakeAutomationCollaborators {
  readonly contactReads: { contactId: string; inTransaction: boolean }[] = [];

  constructor(private readonly unitOfWork: CountingUnitOfWork) {
    super();
  }

  override async contact(accountId: Parameters<FakeAutomationCollaborators['contact']>[0], contactId: string): Promise<AutomationContact | null> {
    this.contactReads.push({ contactId, inTransaction: this.unitOfWork.open });
    return super.contact(accountId, contactId);
  }
}

function automation(trigger: StoredTrigger | null, overrides: Partial<AutomationRecordState> = {}): AutomationRecordState {
  const now = new Date('2026-05-01T12:00:00.000Z');
  return { id: newId(), accountId: ACCOUNT, name: 'A', isActive: true, isPublished: true, allowConcurrentRuns: false, trigger, steps: [{ type: 'add_tag', tag: 't' }], archivedAt: null, createdAt: now, updatedAt: now, ...overrides };
}

/**
 * Issue 11 (hot path): EnrolFromIntegrationEventHandler reads its candidates (store.findTriggered, cached
 * per account in the real store) before opening a unit of work, and opens none when no automation listens.
 */
describe('EnrolFromIntegrationEventHandler: candidates before the transaction, the stage filter and the self-trigger exclusion', () => {
  let unitOfWork: CountingUnitOfWork;
  let store: RecordingStore;
  let outbox: InMemoryJournal;
  let collaborators: RecordingCollaborators;
  let handler: EnrolFromIntegrationEventHandler;
  const contactId = newId();

  beforeEach(() => {
    unitOfWork = new CountingUnitOfWork();
    store = new RecordingStore(unitOfWork);
    outbox = new InMemoryJournal();
    collaborators = new RecordingCollaborators(unitOfWork);
    collaborators.contacts.set(contactId, { id: contactId, first_name: 'N', last_name: null, email: 'n@example.com', phone: null, company: null, archived: false });
    handler = new EnrolFromIntegrationEventHandler(store, outbox, unitOfWork, collaborators, new FixedClock(new Date('2026-05-01T12:00:00.000Z')));
  });

  const created = (payload: Record<string, unknown> = {}, actor: Actor = SYSTEM_ACTOR, eventId = newId()) =>
    handler.execute(new EnrolFromIntegrationEventCommand(ACCOUNT, eventId, CONTACT_EVENTS.created, { contact_id: contactId, ...payload }, actor));
  const moved = (toStage: string | null, pipeline: string, actor: Actor = SYSTEM_ACTOR) =>
    handler.execute(new EnrolFromIntegrationEventCommand(ACCOUNT, newId(), STAGE_CHANGED_EVENT, { contact_id: contactId, to_stage_id: toStage, pipeline_id: pipeline }, actor));
  const enrolledAutomationIds = () => store.executions.map((execution) => execution.automationId).sort();

  /** Nothing happened: no transaction, no contact read, no lock, no execution, no outbox event. */
  const expectNothingOpened = () => {
    expect(unitOfWork.runs).toBe(0);
    expect(collaborators.contactReads).toEqual([]);
    expect(store.calls.filter((call) => !call.method.startsWith('findTriggered'))).toEqual([]);
    expect(store.executions).toEqual([]);
    expect(outbox.events).toEqual([]);
  };

  it('an event no automation listens to opens no transaction and enrols nothing (candidates read outside any transaction)', async () => {
    await store.insertAutomations([
      automation({ type: 'stage_changed', stage_id: STAGE }),
      automation({ type: 'contact_created' }, { isActive: false }),
      automation({ type: 'contact_created' }, { isPublished: false }),
      automation({ type: 'contact_created' }, { archivedAt: new Date('2026-04-01T00:00:00.000Z') }),
      automation({ type: 'custom_event', event: 'contact_created' }),
    ]);

    expect(await created()).toEqual({ executionIds: [] });
    expect(store.calls).toEqual([{ method: 'findTriggered:contact_created', inTransaction: false }]);
    expectNothingOpened();
  });

  it('an event type no trigger uses (lead_updated), a webhook-step event or a contact_id that is not a UUID: no transaction, no store read', async () => {
    await store.insertAutomations([automation({ type: 'contact_created' }), automation({ type: 'stage_changed' })]);

    expect(await handler.execute(new EnrolFromIntegrationEventCommand(ACCOUNT, newId(), CONTACT_EVENTS.updated, { contact_id: contactId }, SYSTEM_ACTOR))).toEqual({ executionIds: [] });
    expect(await created({ source: 'automation_webhook_step' })).toEqual({ executionIds: [] });
    expect(await created({ contact_id: 'not-a-uuid' })).toEqual({ executionIds: [] });

    expect(store.calls).toEqual([]);
    expectNothingOpened();
  });

  it('a matching automation enrols inside one transaction: candidates read before it; contact, lock, execution and outbox event inside it', async () => {
    const first = automation({ type: 'contact_created' });
    const second = automation({ type: 'contact_created' });
    await store.insertAutomations([first, second, automation({ type: 'stage_changed' })]);
    const eventId = newId();

    const result = await created({ contact: { id: contactId, first_name: 'N' }, source: 'api' }, SYSTEM_ACTOR, eventId);

    expect(result.executionIds).toHaveLength(2);
    expect(unitOfWork.runs).toBe(1);
    expect(store.calls).toEqual([
      { method: 'findTriggered:contact_created', inTransaction: false },
      { method: 'lock', inTransaction: true },
      { method: 'insertExecution', inTransaction: true },
      { method: 'lock', inTransaction: true },
      { method: 'insertExecution', inTransaction: true },
    ]);
    expect(collaborators.contactReads).toEqual([{ contactId, inTransaction: true }]);
    expect(store.executions.map(({ id, automationId, contactId: contact, triggerType, sourceEventId, eventData, status }) => ({ id, automationId, contact, triggerType, sourceEventId, eventData, status }))).toEqual([
      { id: result.executionIds[0], automationId: first.id, contact: contactId, triggerType: 'contact_created', sourceEventId: eventId, eventData: { contact_id: contactId, source: 'api' }, status: 'pending' },
      { id: result.executionIds[1], automationId: second.id, contact: contactId, triggerType: 'contact_created', sourceEventId: eventId, eventData: { contact_id: contactId, source: 'api' }, status: 'pending' },
    ]);
    expect(outbox.events.map(({ type, payload }) => ({ type, payload }))).toEqual(
      result.executionIds.map((id, i) => ({ type: AUTOMATION_EVENTS.executionRequested, payload: { automation_id: [first.id, second.id][i], execution_id: id, contact_id: contactId } })),
    );
  });

  it('a redelivered event opens its transaction again but creates nothing more (one execution per event and automation)', async () => {
    await store.insertAutomations([automation({ type: 'contact_created' })]);
    const eventId = newId();
    expect((await created({}, SYSTEM_ACTOR, eventId)).executionIds).toHaveLength(1);
    expect(await created({}, SYSTEM_ACTOR, eventId)).toEqual({ executionIds: [] });
    expect(unitOfWork.runs).toBe(2);
    expect(store.executions).toHaveLength(1);
    expect(outbox.events).toHaveLength(1);
  });

  it('an archived or missing contact enrols nothing (checked inside the transaction, which then writes nothing)', async () => {
    await store.insertAutomations([automation({ type: 'contact_created' })]);
    collaborators.contacts.set(contactId, { ...collaborators.contacts.get(contactId)!, archived: true });
    expect(await created()).toEqual({ executionIds: [] });
    collaborators.contacts.delete(contactId);
    expect(await created()).toEqual({ executionIds: [] });
    expect(store.executions).toEqual([]);
    expect(outbox.events).toEqual([]);
  });

  it('stage_changed filter: stage_id matches moves into that stage, pipeline_id moves into any of its stages, neither any move; a removal enrols nothing', async () => {
    const byStage = automation({ type: 'stage_changed', stage_id: STAGE });
    const byOtherStage = automation({ type: 'stage_changed', stage_id: OTHER_STAGE });
    const byPipeline = automation({ type: 'stage_changed', pipeline_id: PIPELINE });
    const byOtherPipeline = automation({ type: 'stage_changed', pipeline_id: OTHER_PIPELINE });
    const anyMove = automation({ type: 'stage_changed' });
    const bothNull = automation({ type: 'stage_changed', stage_id: null, pipeline_id: null });
    await store.insertAutomations([byStage, byOtherStage, byPipeline, byOtherPipeline, anyMove, bothNull, automation({ type: 'contact_created' })]);

    const intoStage = await moved(STAGE, PIPELINE);
    expect(intoStage.executionIds).toHaveLength(4);
    expect(enrolledAutomationIds()).toEqual([byStage.id, byPipeline.id, anyMove.id, bothNull.id].sort());
    expect(store.executions.every((execution) => execution.triggerType === 'stage_changed')).toBe(true);

    store.executions.length = 0;
    await moved(newId(), PIPELINE);
    expect(enrolledAutomationIds()).toEqual([byPipeline.id, anyMove.id, bothNull.id].sort());

    store.executions.length = 0;
    await moved(newId(), OTHER_PIPELINE);
    expect(enrolledAutomationIds()).toEqual([byOtherPipeline.id, anyMove.id, bothNull.id].sort());
    expect(unitOfWork.runs).toBe(3);

    // Removed from the pipeline (to_stage_id null): nothing read, no transaction.
    store.calls.length = 0;
    store.executions.length = 0;
    expect(await moved(null, PIPELINE)).toEqual({ executionIds: [] });
    expect(store.calls).toEqual([]);
    expect(unitOfWork.runs).toBe(3);
    expect(store.executions).toEqual([]);
  });

  it('a stage_changed event no filter matches opens no transaction', async () => {
    await store.insertAutomations([automation({ type: 'stage_changed', stage_id: OTHER_STAGE }), automation({ type: 'stage_changed', pipeline_id: OTHER_PIPELINE })]);
    expect(await moved(STAGE, PIPELINE)).toEqual({ executionIds: [] });
    expect(store.calls).toEqual([{ method: 'findTriggered:stage_changed', inTransaction: false }]);
    expectNothingOpened();
  });

  it('an automation never enrols from a move it made itself (actor automation with its id); the others still do', async () => {
    const mover = automation({ type: 'stage_changed', stage_id: STAGE });
    const other = automation({ type: 'stage_changed', pipeline_id: PIPELINE });
    await store.insertAutomations([mover, other]);
    const actorFor = (id: string): Actor => ({ type: 'automation', id, name: 'A', via: null });

    expect((await moved(STAGE, PIPELINE, actorFor(mover.id))).executionIds).toHaveLength(1);
    expect(enrolledAutomationIds()).toEqual([other.id]);

    // Another automation's move enrols both; an actor of another type with the same id excludes nothing.
    store.executions.length = 0;
    expect((await moved(STAGE, PIPELINE, actorFor(newId()))).executionIds).toHaveLength(2);
    store.executions.length = 0;
    expect((await moved(STAGE, PIPELINE, { type: 'api_key', id: mover.id, name: 'key', via: 'api_key' })).executionIds).toHaveLength(2);
    expect(unitOfWork.runs).toBe(3);
  });

  it('when the only candidate is the acting automation itself, no transaction is opened', async () => {
    const self = automation({ type: 'contact_created' });
    await store.insertAutomations([self]);
    expect(await created({}, { type: 'automation', id: self.id, name: 'A', via: null })).toEqual({ executionIds: [] });
    expectNothingOpened();
  });
});
