import { INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { Contact, IdentityTakenError } from '@leadflow/contacts-core';
import { asAccountId, FixedClock, newId } from '@leadflow/shared-kernel';
import { AccountCacheInvalidation, PlatformModule, TransactionHost } from '@leadflow/shared-platform';
import { createTestServices, TestServices } from '@leadflow/shared-testing';
import { CONTACTS_RECORDS } from '../src/infrastructure/persistence/contacts.records';
import { TypeOrmContactsRepository } from '../src/infrastructure/persistence/typeorm-contacts.repository';
import { TypeOrmContactIdentityRepository } from '../src/infrastructure/persistence/typeorm-contact-identity.repository';
import { TypeOrmCustomFieldDefinitionRepository } from '../src/infrastructure/persistence/typeorm-custom-field-definition.repository';
import { TypeOrmTagRepository } from '../src/infrastructure/persistence/typeorm-tag.repository';
import { TypeOrmContactTagRepository } from '../src/infrastructure/persistence/typeorm-contact-tag.repository';
import { TypeOrmLeadCaptureLog } from '../src/infrastructure/persistence/typeorm-lead-capture.log';
import { PostgresSmsFollowUpAdapter } from '../src/infrastructure/sms/postgres-sms-follow-up.adapter';

/** Lead capture's persistence on real PostgreSQL: secondary identities, tags on the fly, the capture log, SMS hand-offs. */
describe('lead capture persistence', () => {
  let services: TestServices;
  let context: INestApplicationContext;
  let repository: TypeOrmContactsRepository;
  let identityRepo: TypeOrmContactIdentityRepository;
  let definitionRepo: TypeOrmCustomFieldDefinitionRepository;
  let tagRepo: TypeOrmTagRepository;
  let contactTagRepo: TypeOrmContactTagRepository;
  let captures: TypeOrmLeadCaptureLog;
  let sms: PostgresSmsFollowUpAdapter;
  let transactions: TransactionHost;
  let db: DataSource;
  const clock = new FixedClock(new Date('2026-06-01T09:00:00.000Z'));
  const A = asAccountId(newId());
  const B = asAccountId(newId());

  const contact = async (accountId = A, phone = '+15145550100') => {
    const state = Contact.create({ phone }, { id: newId(), accountId, systemId: newId(), source: 'api', now: clock.now(), definitions: [] }).snapshot;
    await transactions.run(() => repository.insertContact(state));
    return state;
  };

  beforeAll(async () => {
    services = await createTestServices();
    @Module({
      imports: [PlatformModule.forRoot({ config: services.config(), clock }), TypeOrmModule.forFeature(CONTACTS_RECORDS)],
      providers: [TypeOrmContactsRepository, TypeOrmContactIdentityRepository, TypeOrmCustomFieldDefinitionRepository, TypeOrmTagRepository, TypeOrmContactTagRepository, TypeOrmLeadCaptureLog, PostgresSmsFollowUpAdapter],
    })
    class TestModule {}
    context = await NestFactory.createApplicationContext(TestModule, { logger: false, abortOnError: false });
    repository = context.get(TypeOrmContactsRepository);
    identityRepo = context.get(TypeOrmContactIdentityRepository);
    definitionRepo = context.get(TypeOrmCustomFieldDefinitionRepository);
    tagRepo = context.get(TypeOrmTagRepository);
    contactTagRepo = context.get(TypeOrmContactTagRepository);
    captures = context.get(TypeOrmLeadCaptureLog);
    sms = context.get(PostgresSmsFollowUpAdapter);
    transactions = context.get(TransactionHost);
    db = context.get(DataSource);
  });
  afterAll(async () => {
    await context.close();
    await services.dispose();
  });

  it('adds a secondary identity once; a value held by another contact is not moved', async () => {
    const one = await contact(A, '+15145550101');
    const two = await contact(A, '+15145550102');
    expect(await identityRepo.addSecondaryIdentity(A, one.id, 'phone', '+14385550161', clock.now())).toBe(true);
    expect(await identityRepo.addSecondaryIdentity(A, one.id, 'phone', '+14385550161', clock.now())).toBe(false);
    expect(await identityRepo.addSecondaryIdentity(A, one.id, 'phone', '+15145550102', clock.now())).toBe(false);
    const owners = await identityRepo.findIdentityOwners(A, [
      { kind: 'phone', value: '+14385550161' },
      { kind: 'phone', value: '+15145550102' },
    ]);
    expect(owners.map(({ value, survivorId }) => ({ value, survivorId })).sort((a, b) => a.value.localeCompare(b.value))).toEqual([
      { value: '+14385550161', survivorId: one.id },
      { value: '+15145550102', survivorId: two.id },
    ]);
    const rows = await db.query(`SELECT is_primary FROM contacts.contact_identities WHERE account_id = $1 AND value = '+14385550161'`, [A]);
    expect(rows).toEqual([{ is_primary: false }]);
  });

  it('ensureTags creates the missing names, reuses existing ones, per account, in the order asked', async () => {
    const first = await transactions.run(() => tagRepo.ensureTags(A, ['Cuisine', 'Facebook Ads'], { color: '#6b7280' }, clock.now()));
    const second = await transactions.run(() => tagRepo.ensureTags(A, ['Facebook Ads', 'Mobile'], { color: '#6b7280' }, clock.now()));
    expect(first.map((tag) => tag.name)).toEqual(['Cuisine', 'Facebook Ads']);
    expect(second.map((tag) => tag.name)).toEqual(['Facebook Ads', 'Mobile']);
    expect(second[0].id).toBe(first[1].id);
    const other = await transactions.run(() => tagRepo.ensureTags(B, ['Cuisine'], { color: '#6b7280' }, clock.now()));
    expect(other[0].id).not.toBe(first[0].id);
    expect(await db.query(`SELECT count(*)::int AS n FROM contacts.tags WHERE account_id = $1`, [A])).toEqual([{ n: 3 }]);
  });

  it('concurrent ensureTags of the same new name create it once', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => transactions.run(() => tagRepo.ensureTags(A, ['Course'], { color: '#6b7280' }, clock.now()))));
    expect(new Set(results.map((tags) => tags[0].id)).size).toBe(1);
  });

  it('the capture log answers the contact\'s latest capture, per account', async () => {
    const state = await contact(A, '+15145550103');
    expect(await captures.lastCapture(A, state.id)).toBeNull();
    const older = { id: newId(), contactId: state.id, activityId: newId(), contactWasNew: true, capturedAt: new Date('2026-06-01T09:00:00.000Z') };
    const newer = { id: newId(), contactId: state.id, activityId: newId(), contactWasNew: false, capturedAt: new Date('2026-06-01T09:10:00.000Z') };
    await transactions.run(async () => {
      await captures.record(A, older);
      await captures.record(A, newer);
    });
    expect(await captures.lastCapture(A, state.id)).toEqual(newer);
    expect(await captures.lastCapture(B, state.id)).toBeNull();
  });

  it('records one SMS hand-off per event', async () => {
    const state = await contact(A, '+15145550104');
    const handOff = { eventId: newId(), contactId: state.id, captureId: newId(), phone: '+15145550104', firstName: 'Élise', capturedAt: clock.now(), handedOffAt: clock.now() };
    expect(await sms.handOff(A, handOff)).toEqual({ contact: { mergedIntoId: null, aiFollowUpStoppedAt: null }, recorded: true });
    expect(await sms.handOff(A, handOff)).toEqual({ contact: { mergedIntoId: null, aiFollowUpStoppedAt: null }, recorded: false });
    expect(await db.query(`SELECT status, phone FROM contacts.sms_handoffs WHERE account_id = $1 AND event_id = $2`, [A, handOff.eventId])).toEqual([
      { status: 'pending', phone: '+15145550104' },
    ]);
  });

  /** Issue 11 item 3: the contact's follow-up state is read and the hand-off written in ONE statement. */
  it('a hand-off is one statement that records nothing for a merged contact, a stopped follow-up or another account\'s contact', async () => {
    const handOffOf = (contactId: string) => ({ eventId: newId(), contactId, captureId: newId(), phone: '+15145550107', firstName: null, capturedAt: clock.now(), handedOffAt: clock.now() });
    const open = await contact(A, '+15145550127');
    const merged = await contact(A, '+15145550128');
    const stopped = await contact(A, '+15145550129');
    const survivor = newId();
    await db.query(`UPDATE contacts.contacts SET merged_into_id = $3 WHERE account_id = $1 AND id = $2`, [A, merged.id, survivor]);
    await db.query(`UPDATE contacts.contacts SET ai_follow_up_stopped_at = $3 WHERE account_id = $1 AND id = $2`, [A, stopped.id, clock.now()]);

    const statements = jest.spyOn(PostgresQueryRunner.prototype, 'query');
    try {
      expect(await sms.handOff(A, handOffOf(open.id))).toEqual({ contact: { mergedIntoId: null, aiFollowUpStoppedAt: null }, recorded: true });
      expect(statements).toHaveBeenCalledTimes(1);
    } finally {
      statements.mockRestore();
    }
    expect(await sms.handOff(A, handOffOf(merged.id))).toEqual({ contact: { mergedIntoId: survivor, aiFollowUpStoppedAt: null }, recorded: false });
    expect(await sms.handOff(A, handOffOf(stopped.id))).toEqual({ contact: { mergedIntoId: null, aiFollowUpStoppedAt: clock.now() }, recorded: false });
    expect(await sms.handOff(B, handOffOf(open.id))).toEqual({ contact: null, recorded: false });
    expect(await sms.handOff(A, handOffOf(newId()))).toEqual({ contact: null, recorded: false });
    const rows: { contact_id: string }[] = await db.query(`SELECT contact_id FROM contacts.sms_handoffs WHERE contact_id = ANY($1::uuid[])`, [[open.id, merged.id, stopped.id]]);
    expect(rows).toEqual([{ contact_id: open.id }]);
  });

  it('a capture of a new person is one statement: the capture row, the contact, its identities and its tags', async () => {
    const person = Contact.create({ phone: '+15145550106', email: 'une@requete.ca' }, { id: newId(), accountId: A, systemId: newId(), source: 'api', now: clock.now(), definitions: [] }).snapshot;
    const tags = await transactions.run(() => tagRepo.ensureTags(A, ['Une requête', 'Deux'], { color: '#6b7280' }, clock.now()));
    const capture = { id: newId(), contactId: person.id, activityId: newId(), contactWasNew: true, capturedAt: clock.now() };
    await transactions.run(async () => {
      const statements = jest.spyOn(PostgresQueryRunner.prototype, 'query');
      try {
        await captures.record(A, capture, { newContact: person, tagIds: tags.map((tag) => tag.id) });
        expect(statements).toHaveBeenCalledTimes(1);
      } finally {
        statements.mockRestore();
      }
    });
    expect(await repository.findContact(A, person.id)).toEqual(person);
    expect(await captures.lastCapture(A, person.id)).toEqual(capture);
    expect(await contactTagRepo.contactTagIds(A, person.id)).toEqual(expect.arrayContaining(tags.map((tag) => tag.id)));
    const identities = await db.query(`SELECT kind, value, is_primary FROM contacts.contact_identities WHERE account_id = $1 AND contact_id = $2 ORDER BY kind`, [A, person.id]);
    expect(identities).toEqual([
      { kind: 'email', value: 'une@requete.ca', is_primary: true },
      { kind: 'phone', value: '+15145550106', is_primary: true },
    ]);
  });

  it('a new person whose phone another contact holds: IdentityTakenError, and nothing of the capture is written', async () => {
    await contact(A, '+15145550107');
    const person = Contact.create({ phone: '+15145550107' }, { id: newId(), accountId: A, systemId: newId(), source: 'api', now: clock.now(), definitions: [] }).snapshot;
    const capture = { id: newId(), contactId: person.id, activityId: newId(), contactWasNew: true, capturedAt: clock.now() };
    await expect(transactions.run(() => captures.record(A, capture, { newContact: person }))).rejects.toEqual(new IdentityTakenError('phone'));
    expect(await repository.findContact(A, person.id)).toBeNull();
    expect(await captures.lastCapture(A, person.id)).toBeNull();
  });

  describe('writes of what lead capture caches invalidate the account\'s settings in every process, once committed', () => {
    const invalidations = () => jest.spyOn(context.get(AccountCacheInvalidation), 'invalidate');
    afterEach(() => jest.restoreAllMocks());

    it('ensureTags that creates a tag: after the commit, not before; none when every name existed', async () => {
      const spy = invalidations();
      await transactions.run(async () => {
        await tagRepo.ensureTags(A, ['Invalidée'], { color: '#6b7280' }, clock.now());
        expect(spy).not.toHaveBeenCalled();
      });
      expect(spy.mock.calls).toEqual([['config', A]]);
      await transactions.run(() => tagRepo.ensureTags(A, ['Invalidée'], { color: '#6b7280' }, clock.now()));
      expect(spy).toHaveBeenCalledTimes(1);
    });

    it('nothing is invalidated when the transaction rolls back', async () => {
      const spy = invalidations();
      await expect(
        transactions.run(async () => {
          await tagRepo.ensureTags(A, ['Annulée'], { color: '#6b7280' }, clock.now());
          throw new Error('rollback');
        }),
      ).rejects.toThrow('rollback');
      expect(spy).not.toHaveBeenCalled();
    });

    it('a tag created (POST /v1/tags, campaign tags) and custom-field definitions', async () => {
      const spy = invalidations();
      const tag = (name: string, systemKey: string | null = null) => ({ id: newId(), name, color: '#6b7280', description: null, category: null, systemKey, createdAt: clock.now(), updatedAt: clock.now() });
      await transactions.run(() => tagRepo.insertTag(B, tag('Nouvelle')));
      await transactions.run(() => tagRepo.insertTagIfAbsent(B, tag('Campagne : Salon', 'campaign:salon')));
      await transactions.run(() => tagRepo.insertTagIfAbsent(B, tag('Campagne : Salon', 'campaign:salon'))); // exists: nothing written
      await transactions.run(() => definitionRepo.insertDefinitions(B, [{ id: newId(), name: 'budget', type: 'text', options: null }], clock.now()));
      expect(spy.mock.calls).toEqual([
        ['config', B],
        ['config', B],
        ['config', B],
      ]);
    });
  });

  it('deleting a contact deletes its captures and hand-offs', async () => {
    const state = await contact(A, '+15145550105');
    await transactions.run(() => captures.record(A, { id: newId(), contactId: state.id, activityId: newId(), contactWasNew: true, capturedAt: clock.now() }));
    await sms.handOff(A, { eventId: newId(), contactId: state.id, captureId: newId(), phone: '+15145550105', firstName: null, capturedAt: clock.now(), handedOffAt: clock.now() });
    await transactions.run(() => repository.deleteContacts(A, [state.id]));
    for (const table of ['contacts.lead_captures', 'contacts.sms_handoffs']) {
      expect(await db.query(`SELECT count(*)::int AS n FROM ${table} WHERE account_id = $1 AND contact_id = $2`, [A, state.id])).toEqual([{ n: 0 }]);
    }
  });
});
