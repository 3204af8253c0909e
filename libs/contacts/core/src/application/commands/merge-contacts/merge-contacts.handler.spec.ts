import type { CommandBus } from '@nestjs/cqrs';
import { Actor, asAccountId, DomainError, FixedClock, newId } from '@leadflow/shared-kernel';
import { ReassignContactBookingsCommand } from '@leadflow/bookings-contracts';
import { ReassignContactRegistrationsCommand } from '@leadflow/events-contracts';
import { InMemoryJournal, InMemoryUnitOfWork } from '@leadflow/shared-testing/fakes';
import { inMemoryContactPorts, InMemoryContactsStore } from '../../../testing/in-memory-contacts';
import { Contact } from '../../../domain/contact.aggregate';
import { MergeContactsCommand } from './merge-contacts.command';
import { MergeContactsHandler } from './merge-contacts.handler';

const ACCOUNT = asAccountId('a0000000-0000-4000-8000-000000000001');
const ACTOR: Actor = { type: 'api_key', id: 'k1', name: 'full', via: 'api_key' };
const NOW = new Date('2027-03-01T12:00:00.000Z');

function setup() {
  const store = new InMemoryContactsStore();
  const { contacts, identities, contactTags } = inMemoryContactPorts(store);
  const dispatched: { name: string; dryRun: boolean }[] = [];
  const commands = {
    execute: async (command: { constructor: { name: string }; dryRun: boolean }) => {
      dispatched.push({ name: command.constructor.name, dryRun: command.dryRun });
      if (command instanceof ReassignContactRegistrationsCommand) return { moved: ['r1'], skipped: ['r2'] };
      return command instanceof ReassignContactBookingsCommand ? ['b1', 'b2'] : ['q1'];
    },
  } as unknown as CommandBus;
  const handler = new MergeContactsHandler(contacts, identities, contactTags, new InMemoryUnitOfWork(store), new InMemoryJournal(store), commands, new FixedClock(NOW));
  const add = async (values: Record<string, unknown>) => {
    const contact = Contact.create(values, { id: newId(), accountId: ACCOUNT, source: 'api', now: new Date('2027-01-01T00:00:00.000Z'), definitions: [] });
    await contacts.insertContact(contact.snapshot);
    return contact.id;
  };
  const merge = (id: string, into: string, dryRun: boolean) => handler.execute(new MergeContactsCommand(ACCOUNT, id, into, dryRun, ACTOR));
  return { store, add, merge, dispatched };
}

async function refusal(work: Promise<unknown>): Promise<DomainError> {
  const error = await work.then(() => null, (e: unknown) => e);
  if (!(error instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(error)}`);
  return error;
}

describe('MergeContactsHandler (POST /v1/contacts/{id}/merge)', () => {
  it('dry run: the report of what would happen, other contexts asked with dryRun, nothing written', async () => {
    const { store, add, merge, dispatched } = setup();
    const survivor = await add({ email: 'julie@example.com', firstName: 'Julie' });
    const merged = await add({ phone: '514-555-0142', lastName: 'Tremblay' });
    const before = store.snapshot();
    const report = await merge(merged, survivor, true);
    expect(report).toMatchObject({
      dry_run: true,
      merged_contact_id: merged,
      survivor: { id: survivor, first_name: 'Julie', last_name: 'Tremblay', email: 'julie@example.com', phone: '+15145550142' },
      fields: { kept: [], filled: ['last_name', 'phone'] },
      identities: { count: 1, items: [{ kind: 'phone', value: '+15145550142', primary: true }] },
      bookings: { count: 2, ids: ['b1', 'b2'] },
      quotes: { count: 1, ids: ['q1'] },
      registrations: { count: 1, ids: ['r1'], skipped_ids: ['r2'] },
    });
    expect(dispatched.every((call) => call.dryRun)).toBe(true);
    expect(store.snapshot()).toBe(before);
  });

  it('the real merge writes the same report: merged contact absorbed, identities handed over, contact_merged and lead_updated recorded', async () => {
    const { store, add, merge } = setup();
    const survivor = await add({ email: 'julie@example.com' });
    const merged = await add({ phone: '514-555-0142', company: 'Toitures Tremblay' });
    const dry = await merge(merged, survivor, true);
    const report = await merge(merged, survivor, false);
    expect({ ...report, dry_run: true }).toEqual(dry);
    expect(store.contacts.find((row) => row.id === merged)).toMatchObject({ mergedIntoId: survivor, mergedAt: NOW, phone: null });
    expect(store.contacts.find((row) => row.id === survivor)).toMatchObject({ phone: '+15145550142', company: 'Toitures Tremblay' });
    expect(store.identities.find((row) => row.value === '+15145550142')).toMatchObject({ contactId: survivor, isPrimary: true });
    expect(store.entries.map((entry) => [entry.type, entry.contactId])).toEqual([
      ['contact_merged', merged],
      ['contact_absorbed', survivor],
    ]);
    expect(store.events.map((event) => event.type)).toEqual(['contact_merged', 'lead_updated']);
    expect(store.events[0].payload).toMatchObject({ contact_id: merged, into_contact_id: survivor, survivor: { id: survivor } });
  });

  it('merging into itself is 400 validation_error on into; a missing, merged or unknown survivor 404 not_found on into; a merged contact 404', async () => {
    const { add, merge, store } = setup();
    const a = await add({ email: 'a@example.com' });
    const b = await add({ email: 'b@example.com' });
    expect(await refusal(merge(a, a, false))).toMatchObject({ code: 'validation_error', details: [expect.objectContaining({ field: 'into', reason: 'invalid_value' })] });
    expect(await refusal(merge(a, newId(), true))).toMatchObject({ code: 'not_found', details: { resource: 'contact', field: 'into' } });
    expect(await refusal(merge(newId(), a, false))).toMatchObject({ code: 'not_found', details: { resource: 'contact' } });
    await merge(a, b, false);
    const entries = store.entries.length;
    expect(await refusal(merge(a, b, false))).toMatchObject({ code: 'not_found', details: { resource: 'contact' } });
    const c = await add({ email: 'c@example.com' });
    expect(await refusal(merge(c, a, false))).toMatchObject({ code: 'not_found', details: { resource: 'contact', field: 'into' } });
    expect(store.entries).toHaveLength(entries);
  });
});
