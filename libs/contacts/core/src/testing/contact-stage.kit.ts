/** Shared fixture of the stage handlers' unit specs (move to a stage, remove from the pipeline). */
import { AccountId, Actor, asAccountId, DomainError, FixedClock, IntegrationEvent, JournalEntry, newId } from '@leadflow/shared-kernel';
import type { StageTarget } from '@leadflow/contacts-contracts';
import { InMemoryJournal, InMemoryUnitOfWork } from '@leadflow/shared-testing/fakes';
import { Contact, ContactState } from '../domain/contact.aggregate';
import { InMemoryContactStageRepository } from './in-memory-contact-stages';
import { InMemoryContactsRepository, InMemoryContactsStore } from './in-memory-contacts';
import { MoveContactToStageHandler } from '../application/commands/move-contact-to-stage/move-contact-to-stage.handler';
import { RemoveContactFromPipelineHandler } from '../application/commands/remove-contact-from-pipeline/remove-contact-from-pipeline.handler';

export const ACCOUNT = asAccountId('a0000000-0000-4000-8000-000000000001');
export const OTHER_ACCOUNT = asAccountId('a0000000-0000-4000-8000-000000000002');
export const ACTOR: Actor = { type: 'api_key', id: 'k1', name: 'full', via: 'api_key' };
export const SALES = 'c0000000-0000-4000-8000-000000000001';
export const RENTALS = 'c0000000-0000-4000-8000-000000000002';
export const NEW = 'd0000000-0000-4000-8000-000000000001';
export const QUOTED = 'd0000000-0000-4000-8000-000000000002';
export const LOST = 'd0000000-0000-4000-8000-000000000003';
export const RENTAL_NEW = 'd0000000-0000-4000-8000-000000000004';
export const target = (stageId: string, pipelineId = SALES, acceptsDisqualifiedLeads = false): StageTarget => ({ pipelineId, stageId, acceptsDisqualifiedLeads });

/** Journal whose outbox write fails after the activity entries were written: the whole unit of work must roll back. */
export class FailingOutboxJournal extends InMemoryJournal {
  override async record(accountId: AccountId, entries: readonly JournalEntry[], events: readonly IntegrationEvent[]): Promise<never> {
    await super.record(accountId, entries, []);
    throw new Error(`outbox unavailable (${events.length} events lost)`);
  }
}

/** In-memory contacts and stage fakes (one store), helpers to add and read contacts, and the two stage handlers. */
export function contactStageSetup(options: { failingOutbox?: boolean } = {}) {
  const store = new InMemoryContactsStore();
  const clock = new FixedClock(new Date('2026-04-01T10:00:00.000Z'));
  const contacts = new InMemoryContactsRepository(store);
  const stages = new InMemoryContactStageRepository(store);
  const unitOfWork = new InMemoryUnitOfWork(store);
  const journal = options.failingOutbox ? new FailingOutboxJournal(store) : new InMemoryJournal(store);
  const add = (state: Partial<ContactState> = {}, accountId: AccountId = ACCOUNT): ContactState => {
    const contact = Contact.create(
      { email: `${newId()}@example.com` },
      { id: newId(), accountId, systemId: newId(), source: 'api', now: new Date('2026-03-01T00:00:00.000Z'), definitions: [] },
    );
    const row = { ...contact.snapshot, ...state };
    store.contacts.push(row);
    return row;
  };
  const stored = (id: string) => store.contacts.find((row) => row.id === id)!;
  return {
    store,
    clock,
    add,
    stored,
    move: new MoveContactToStageHandler(contacts, stages, unitOfWork, journal, clock),
    remove: new RemoveContactFromPipelineHandler(contacts, stages, unitOfWork, journal, clock),
  };
}

/** The DomainError a refused command threw. */
export async function refusal(work: Promise<unknown>): Promise<DomainError> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(error)}`);
  return error;
}
