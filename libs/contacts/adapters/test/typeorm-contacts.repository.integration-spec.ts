import { INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ContactState, EMPTY_ADDRESS, IdentityTakenError, TagNameTakenError } from '@leadflow/contacts-core';
import { AccountId, asAccountId, FixedClock, newId } from '@leadflow/shared-kernel';
import { PlatformModule, TransactionHost } from '@leadflow/shared-platform';
import { createTestServices, TestServices } from '@leadflow/shared-testing';
import { CONTACTS_RECORDS } from '../src/infrastructure/persistence/contacts.records';
import { EXACT_COUNT_CAP, TypeOrmContactsReadModel } from '../src/infrastructure/persistence/typeorm-contacts.read-model';
import { TypeOrmContactsRepository } from '../src/infrastructure/persistence/typeorm-contacts.repository';
import { TypeOrmContactIdentityRepository } from '../src/infrastructure/persistence/typeorm-contact-identity.repository';
import { TypeOrmTagRepository } from '../src/infrastructure/persistence/typeorm-tag.repository';
import { TypeOrmContactTagRepository } from '../src/infrastructure/persistence/typeorm-contact-tag.repository';
import { TypeOrmContactNoteRepository } from '../src/infrastructure/persistence/typeorm-contact-note.repository';

/** The contacts write repositories and read model on real PostgreSQL (schema from the migrations). */
describe('TypeOrm contacts repositories (contacts, identities, tags, contact tags, notes) and read model', () => {
  let services: TestServices;
  let context: INestApplicationContext;
  let repository: TypeOrmContactsRepository;
  let identityRepo: TypeOrmContactIdentityRepository;
  let tagRepo: TypeOrmTagRepository;
  let contactTagRepo: TypeOrmContactTagRepository;
  let noteRepo: TypeOrmContactNoteRepository;
  let reads: TypeOrmContactsReadModel;
  let transactions: TransactionHost;
  const clock = new FixedClock(new Date('2026-06-01T09:00:00.000Z'));
  const A = asAccountId(newId());
  const B = asAccountId(newId());

  const contact = (accountId: AccountId, fields: Partial<ContactState> = {}): ContactState => ({
    id: newId(),
    accountId,
    firstName: null,
    lastName: null,
    email: null,
    phone: null,
    company: null,
    dealValueCents: null,
    customFields: {},
    isPriority: false,
    notes: null,
    source: 'api',
    systemId: newId(),
    pipelineId: null,
    stageId: null,
    salesRepId: null,
    attribution: {},
    addressParts: { ...EMPTY_ADDRESS },
    sourceLabel: null,
    expectedCloseDate: null,
    archivedAt: null,
    mergedIntoId: null,
    mergedAt: null,
    disqualifiedAt: null,
    score: 0,
    scoreReviewAt: null,
    createdAt: clock.now(),
    updatedAt: clock.now(),
    ...fields,
  });
  const insert = async (state: ContactState) => {
    await transactions.run(() => repository.insertContact(state));
    return state;
  };

  beforeAll(async () => {
    services = await createTestServices();
    @Module({
      imports: [PlatformModule.forRoot({ config: services.config(), clock }), TypeOrmModule.forFeature(CONTACTS_RECORDS)],
      providers: [TypeOrmContactsRepository, TypeOrmContactIdentityRepository, TypeOrmTagRepository, TypeOrmContactTagRepository, TypeOrmContactNoteRepository, TypeOrmContactsReadModel],
    })
    class TestModule {}
    context = await NestFactory.createApplicationContext(TestModule, { logger: false, abortOnError: false });
    repository = context.get(TypeOrmContactsRepository);
    identityRepo = context.get(TypeOrmContactIdentityRepository);
    tagRepo = context.get(TypeOrmTagRepository);
    contactTagRepo = context.get(TypeOrmContactTagRepository);
    noteRepo = context.get(TypeOrmContactNoteRepository);
    reads = context.get(TypeOrmContactsReadModel);
    transactions = context.get(TransactionHost);
  });
  afterAll(async () => {
    await context.close();
    await services.dispose();
  });

  it('round-trips every column (deal value cents as a number, jsonb, address, lifecycle)', async () => {
    const state = contact(A, {
      firstName: 'Julie',
      email: 'julie@example.com',
      phone: '+15145550100',
      dealValueCents: 123456789012,
      customFields: { [newId()]: 'x', [newId()]: 3.5, [newId()]: true },
      attribution: { utm: { source: 'google' } },
      addressParts: { ...EMPTY_ADDRESS, city: 'Laval', postalCode: 'H7N 1A1' },
      pipelineId: newId(),
      stageId: newId(),
      archivedAt: new Date('2026-06-01T10:00:00.123Z'),
    });
    await insert(state);
    expect(await repository.findContact(A, state.id)).toEqual(state);
    expect(await repository.findContact(B, state.id)).toBeNull();
    expect(await repository.findContact(A, 'not-a-uuid')).toBeNull();
  });

  it('the unique identity index refuses a duplicate even between concurrent transactions', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, () => insert(contact(A, { email: 'concurrent@example.com' }))),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')) {
      expect(result.reason).toBeInstanceOf(IdentityTakenError);
      expect(result.reason.details).toEqual({ conflicting_field: 'email' });
    }
    const phone = await Promise.allSettled([insert(contact(A, { phone: '+15145550199' })), insert(contact(A, { phone: '+15145550199' }))]);
    expect(phone.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((phone.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason.details).toEqual({ conflicting_field: 'phone' });
    // The same identity in another account is another person.
    await expect(insert(contact(B, { email: 'concurrent@example.com' }))).resolves.toBeDefined();
  });

  it('a refused identity leaves no contact row behind (the transaction rolls back)', async () => {
    await insert(contact(A, { email: 'first@example.com' }));
    const second = contact(A, { email: 'first@example.com' });
    await expect(insert(second)).rejects.toBeInstanceOf(IdentityTakenError);
    expect(await repository.findContact(A, second.id)).toBeNull();
  });

  it('identity owners resolve through merge chains to the surviving contact', async () => {
    const a = await insert(contact(A, { email: 'chain-a@example.com' }));
    const b = await insert(contact(A, { email: 'chain-b@example.com' }));
    const c = await insert(contact(A));
    await transactions.run(async () => {
      await repository.updateContact({ ...a, mergedIntoId: b.id, mergedAt: clock.now() });
      await repository.updateContact({ ...b, mergedIntoId: c.id, mergedAt: clock.now() });
    });
    const owners = await identityRepo.findIdentityOwners(A, [
      { kind: 'email', value: 'chain-a@example.com' },
      { kind: 'email', value: 'chain-b@example.com' },
    ]);
    expect(owners.sort((x, y) => x.value.localeCompare(y.value))).toEqual([
      { kind: 'email', value: 'chain-a@example.com', contactId: a.id, survivorId: c.id },
      { kind: 'email', value: 'chain-b@example.com', contactId: b.id, survivorId: c.id },
    ]);
    expect((await repository.absorbedInto(A, c.id)).sort()).toEqual([a.id, b.id].sort());
    expect(await reads.getContact(A, a.id)).toBeNull();
    expect(await identityRepo.findIdentityOwners(B, [{ kind: 'email', value: 'chain-a@example.com' }])).toEqual([]);
  });

  it('setPrimaryIdentity replaces the primary, promotes an own secondary, refuses another contact’s', async () => {
    const me = await insert(contact(A, { email: 'me@example.com' }));
    const other = await insert(contact(A, { email: 'other@example.com' }));
    const db = context.get(DataSource);
    await db.query(
      `INSERT INTO contacts.contact_identities (account_id, contact_id, kind, value, is_primary, created_at) VALUES ($1, $2, 'email', 'me.alt@example.com', false, now())`,
      [A, me.id],
    );
    await transactions.run(() => identityRepo.setPrimaryIdentity(A, me.id, 'email', 'me.alt@example.com', clock.now()));
    expect(await db.query(`SELECT value, is_primary FROM contacts.contact_identities WHERE contact_id = $1`, [me.id])).toEqual([
      { value: 'me.alt@example.com', is_primary: true },
    ]);
    await expect(transactions.run(() => identityRepo.setPrimaryIdentity(A, me.id, 'email', 'other@example.com', clock.now()))).rejects.toBeInstanceOf(
      IdentityTakenError,
    );
    await transactions.run(() => identityRepo.setPrimaryIdentity(A, me.id, 'email', null, clock.now()));
    expect(await db.query(`SELECT value FROM contacts.contact_identities WHERE contact_id = $1`, [me.id])).toEqual([]);
    expect(await identityRepo.findIdentityOwners(A, [{ kind: 'email', value: 'other@example.com' }])).toEqual([
      expect.objectContaining({ contactId: other.id }),
    ]);
  });

  it('deleteContacts removes the contacts with their identities, tag links and notes, in the account only', async () => {
    const doomed = await insert(contact(A, { email: 'doomed@example.com' }));
    const tag = { id: newId(), name: `Tag ${newId()}`, color: '#6b7280', description: null, category: null, systemKey: null, createdAt: clock.now(), updatedAt: clock.now() };
    await transactions.run(async () => {
      await tagRepo.insertTag(A, tag);
      await contactTagRepo.attachTags(A, doomed.id, [tag.id], clock.now());
      await noteRepo.insertNote(A, { id: newId(), contactId: doomed.id, body: 'x', actor: { type: null, id: null, name: null, via: null }, createdAt: clock.now() });
    });
    await transactions.run(() => repository.deleteContacts(B, [doomed.id]));
    expect(await repository.findContact(A, doomed.id)).not.toBeNull();
    await transactions.run(() => repository.deleteContacts(A, [doomed.id]));
    expect(await repository.findContact(A, doomed.id)).toBeNull();
    const db = context.get(DataSource);
    for (const table of ['contact_identities', 'contact_tags', 'contact_notes']) {
      expect(await db.query(`SELECT 1 FROM contacts.${table} WHERE contact_id = $1`, [doomed.id])).toEqual([]);
    }
    expect(await tagRepo.findTags(A, [tag.id])).toHaveLength(1);
  });

  it('tag names are unique per account (case-sensitive); campaign tags by system key', async () => {
    const tag = (name: string, systemKey: string | null = null) => ({
      id: newId(),
      name,
      color: '#6b7280',
      description: null,
      category: null,
      systemKey,
      createdAt: clock.now(),
      updatedAt: clock.now(),
    });
    await transactions.run(() => tagRepo.insertTag(A, tag('Unique')));
    await expect(transactions.run(() => tagRepo.insertTag(A, tag('Unique')))).rejects.toBeInstanceOf(TagNameTakenError);
    await transactions.run(() => tagRepo.insertTag(A, tag('unique')));
    await transactions.run(() => tagRepo.insertTag(B, tag('Unique')));
    expect(await transactions.run(() => tagRepo.insertTagIfAbsent(A, tag('Campagne : X', 'campaign:x')))).toBe(true);
    expect(await transactions.run(() => tagRepo.insertTagIfAbsent(A, tag('Campagne : Y', 'campaign:x')))).toBe(false);
    expect(await tagRepo.findTagBySystemKey(A, 'campaign:x')).toMatchObject({ name: 'Campagne : X' });
    expect(await tagRepo.findTagBySystemKey(B, 'campaign:x')).toBeNull();
  });

  it('total_count of the contacts list is exact up to the cap, then the planner estimate (never below the cap)', async () => {
    const small = asAccountId(newId());
    for (let index = 0; index < 3; index++) await insert(contact(small));
    const page = { limit: 2, after: null };
    const exact = await transactions.run(() => reads.listContacts(small, { words: [], tagId: null, page, expandTags: false }));
    expect(exact.pagination).toMatchObject({ total_count: 3, has_more: true });

    const large = asAccountId(newId());
    const seed = await insert(contact(large));
    const dataSource = context.get(DataSource);
    await dataSource.query(
      `INSERT INTO contacts.contacts
       SELECT (jsonb_populate_record(c, jsonb_build_object('id', gen_random_uuid()))).*
         FROM contacts.contacts c, generate_series(1, $2::int) WHERE c.id = $1`,
      [seed.id, EXACT_COUNT_CAP + 500],
    );
    await dataSource.query('ANALYZE contacts.contacts');
    const estimated = await transactions.run(() => reads.listContacts(large, { words: [], tagId: null, page, expandTags: false }));
    expect(estimated.pagination.total_count).toBeGreaterThan(EXACT_COUNT_CAP);
    expect(estimated.data).toHaveLength(2);
  });

  it("a keyed read filters the merged state after the primary-key lookup: a merged contact and another account's contact read as missing", async () => {
    const merged = await insert(contact(A));
    const survivor = await insert(contact(A));
    expect((await reads.getContact(A, merged.id))?.id).toBe(merged.id);
    await context.get(DataSource).query('UPDATE contacts.contacts SET merged_into_id = $2, merged_at = now() WHERE id = $1', [merged.id, survivor.id]);
    expect(await reads.getContact(A, merged.id)).toBeNull();
    expect((await reads.getContact(A, survivor.id))?.id).toBe(survivor.id);
    expect(await reads.getContact(B, survivor.id)).toBeNull();
  });
});
