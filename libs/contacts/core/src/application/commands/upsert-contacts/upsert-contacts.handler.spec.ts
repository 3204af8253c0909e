import type { QueryBus } from '@nestjs/cqrs';
import { Actor, asAccountId, FixedClock } from '@leadflow/shared-kernel';
import type { SystemView } from '@leadflow/accounts-contracts';
import { InMemoryJournal, InMemoryUnitOfWork } from '@leadflow/shared-testing/fakes';
import { inMemoryContactPorts, InMemoryContactsStore } from '../../../testing/in-memory-contacts';
import { UpsertContactsCommand } from './upsert-contacts.command';
import { UpsertContactsHandler } from './upsert-contacts.handler';

const ACCOUNT = asAccountId('a0000000-0000-4000-8000-000000000001');
const ACTOR: Actor = { type: 'api_key', id: 'k1', name: 'full', via: 'api_key' };
const MAIN = 'b0000000-0000-4000-8000-000000000001';
const SYSTEMS: SystemView[] = [{ id: MAIN, name: 'Main', isMain: true, isActive: true }];

function setup() {
  const store = new InMemoryContactsStore();
  const { contacts, identities, definitions } = inMemoryContactPorts(store);
  const lookups = jest.spyOn(identities, 'findIdentityOwners');
  const clock = new FixedClock(new Date('2027-03-01T12:00:00.000Z'));
  const queries = { execute: async () => SYSTEMS } as unknown as QueryBus;
  const handler = new UpsertContactsHandler(contacts, identities, definitions, new InMemoryUnitOfWork(store), new InMemoryJournal(store), queries, clock);
  const run = (inputs: unknown[]) => handler.execute(new UpsertContactsCommand(ACCOUNT, inputs, ACTOR));
  return { store, run, lookups, clock };
}

describe('UpsertContactsHandler (POST /v1/contacts/batch)', () => {
  it('one result per input, in order: created, then the same person again is unchanged; identities resolved in one statement', async () => {
    const { run, store, lookups } = setup();
    const results = await run([
      { email: 'Julie.Tremblay@example.com', first_name: 'Julie' },
      { email: 'marc.gagnon@example.com', phone: '514 555 0142' },
      { email: 'julie.tremblay@example.com', first_name: 'Julie' },
    ]);
    expect(results.map((result) => [result.index, result.status])).toEqual([
      [0, 'created'],
      [1, 'created'],
      [2, 'unchanged'],
    ]);
    expect(store.contacts).toHaveLength(2);
    expect(lookups).toHaveBeenCalledTimes(1);
    expect(store.events.map((event) => event.type)).toEqual(['contact_created', 'contact_created']);
  });

  it('matched by email then phone (email wins): the fields sent replace the stored ones, lead_updated with the changes', async () => {
    const { run, store } = setup();
    const [first, second] = await run([{ email: 'julie@example.com', first_name: 'Julie' }, { phone: '+1 514 555 0142', first_name: 'Marc' }]);
    const results = await run([{ email: 'julie@example.com', phone: '+15145550142', company: 'Toitures Tremblay' }]);
    expect(results[0]).toMatchObject({ status: 'updated', contact: { id: (first as { contact: { id: string } }).contact.id, company: 'Toitures Tremblay', phone: null } });
    expect(store.events.at(-1)).toMatchObject({ type: 'lead_updated', payload: { changes: { company: { previous: null, current: 'Toitures Tremblay' } } } });
    // the phone stays with the contact holding it
    expect(store.identities.find((row) => row.value === '+15145550142')?.contactId).toBe((second as { contact: { id: string } }).contact.id);
  });

  it('a new phone fills an empty primary phone, and is kept as a secondary one when the contact has a phone', async () => {
    const { run, store } = setup();
    await run([{ email: 'julie@example.com' }]);
    const [filled] = await run([{ email: 'julie@example.com', phone: '514-555-0142' }]);
    expect(filled).toMatchObject({ status: 'updated', contact: { phone: '+15145550142' } });
    const [secondary] = await run([{ email: 'julie@example.com', phone: '418-555-0199' }]);
    expect(secondary).toMatchObject({ status: 'updated', contact: { phone: '+15145550142' } });
    expect(store.identities.find((row) => row.value === '+14185550199')).toMatchObject({ isPrimary: false });
    expect(store.events.at(-1)).toMatchObject({ type: 'lead_updated', payload: { changes: {}, identities_added: [{ kind: 'phone', value: '+14185550199' }] } });
  });

  it('partial success: a refused input is an error result with the code and details, writes nothing, and the others go on', async () => {
    const { run, store } = setup();
    const results = await run([{ first_name: 'Sans identité' }, { email: 'ok@example.com', deal_value: -5 }, 'pas un objet', { email: 'ok@example.com' }]);
    expect(results[0]).toEqual({
      index: 0,
      status: 'error',
      error: { code: 'validation_error', message: expect.any(String), details: [expect.objectContaining({ field: 'email', reason: 'identity_required' }), expect.objectContaining({ field: 'phone', reason: 'identity_required' })] },
    });
    expect(results[1]).toMatchObject({ status: 'error', error: { code: 'validation_error', details: [expect.objectContaining({ field: 'deal_value', reason: 'invalid_value' })] } });
    expect(results[2]).toMatchObject({ status: 'error', error: { code: 'validation_error', details: [expect.objectContaining({ field: '', reason: 'invalid_type' })] } });
    expect(results[3]).toMatchObject({ index: 3, status: 'created' });
    expect(store.contacts).toHaveLength(1);
  });

  it('an unknown system_id is 422 system_not_found for that input only', async () => {
    const { run } = setup();
    const results = await run([{ email: 'a@example.com', system_id: 'b0000000-0000-4000-8000-000000000009' }, { email: 'b@example.com', system_id: MAIN }]);
    expect(results[0]).toMatchObject({ status: 'error', error: { code: 'system_not_found', details: { field: 'system_id' } } });
    expect(results[1]).toMatchObject({ status: 'created', contact: { system_id: MAIN } });
  });

  it('a concurrent request that took the identity after the batch read it: the input re-resolves and updates the winner', async () => {
    const { run, store, lookups } = setup();
    await run([{ email: 'julie@example.com', first_name: 'Julie' }]);
    const winner = store.contacts[0];
    lookups.mockClear();
    lookups.mockResolvedValueOnce([]); // the batch's statement ran before the concurrent create committed
    const results = await run([{ email: 'julie@example.com', last_name: 'Tremblay' }]);
    expect(results[0]).toMatchObject({ status: 'updated', contact: { id: winner.id, last_name: 'Tremblay' } });
    expect(lookups).toHaveBeenCalledTimes(2);
    expect(store.contacts).toHaveLength(1);
  });
});
