/** Shared fixture of the contact write handlers' unit specs (create, update, attach tags, campaign tags). */
import type { QueryBus } from '@nestjs/cqrs';
import { Actor, asAccountId, DomainError, FixedClock } from '@leadflow/shared-kernel';
import type { SystemView } from '@leadflow/accounts-contracts';
import { InMemoryJournal, InMemoryUnitOfWork } from '@leadflow/shared-testing/fakes';
import { inMemoryContactPorts, InMemoryContactsReadModel, InMemoryContactsStore } from './in-memory-contacts';
import { AttachTagsHandler } from '../application/commands/attach-tags/attach-tags.handler';
import { CreateContactHandler } from '../application/commands/create-contact/create-contact.handler';
import { EnsureCampaignTagHandler } from '../application/commands/ensure-campaign-tag/ensure-campaign-tag.handler';
import { UpdateContactHandler } from '../application/commands/update-contact/update-contact.handler';

export const ACCOUNT = asAccountId('a0000000-0000-4000-8000-000000000001');
export const ACTOR: Actor = { type: 'api_key', id: 'k1', name: 'full', via: 'api_key' };
export const MAIN = 'b0000000-0000-4000-8000-000000000001';
export const INACTIVE = 'b0000000-0000-4000-8000-000000000002';
export const OTHER = 'b0000000-0000-4000-8000-000000000003';
export const SYSTEMS: SystemView[] = [
  { id: MAIN, name: 'Main', isMain: true, isActive: true },
  { id: INACTIVE, name: 'Laval', isMain: false, isActive: false },
  { id: OTHER, name: 'Québec', isMain: false, isActive: true },
];

/** In-memory contacts fakes (one store) and the contact write handlers over them; the main System is MAIN. */
export function contactHandlersSetup() {
  const store = new InMemoryContactsStore();
  const ports = inMemoryContactPorts(store);
  const { contacts, identities, definitions, tags, contactTags } = ports;
  const reads = new InMemoryContactsReadModel(store);
  const unitOfWork = new InMemoryUnitOfWork(store);
  const journal = new InMemoryJournal(store);
  const clock = new FixedClock(new Date('2026-04-01T10:00:00.000Z'));
  const queries = { execute: async () => SYSTEMS } as unknown as QueryBus;
  return {
    store,
    ...ports,
    create: new CreateContactHandler(contacts, identities, definitions, reads, unitOfWork, journal, queries, clock),
    update: new UpdateContactHandler(contacts, identities, definitions, unitOfWork, journal, clock),
    attach: new AttachTagsHandler(contacts, tags, contactTags, reads, unitOfWork, journal, clock),
    campaign: new EnsureCampaignTagHandler(tags, unitOfWork, clock),
  };
}

/** The DomainError a refused command threw (fails the test when it resolved or threw something else). */
export async function refusal(work: Promise<unknown>): Promise<DomainError> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(error)}`);
  return error;
}
