import { INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { asAccountId, FixedClock, newId } from '@leadflow/shared-kernel';
import { AccountCacheInvalidation, PlatformModule, TransactionHost } from '@leadflow/shared-platform';
import { createTestServices, TestServices } from '@leadflow/shared-testing';
import { ACCOUNTS_RECORDS } from '../src/infrastructure/persistence/accounts.records';
import { TypeOrmAccountsRepository } from '../src/infrastructure/persistence/typeorm-accounts.repository';

/** Systems and team members (what lead capture caches per account) on real PostgreSQL: their writes invalidate the cached settings. */
describe('TypeOrmAccountsRepository', () => {
  let services: TestServices;
  let context: INestApplicationContext;
  let repository: TypeOrmAccountsRepository;
  let transactions: TransactionHost;
  const clock = new FixedClock(new Date('2026-06-01T09:00:00.000Z'));

  beforeAll(async () => {
    services = await createTestServices();
    @Module({
      imports: [PlatformModule.forRoot({ config: services.config(), clock }), TypeOrmModule.forFeature(ACCOUNTS_RECORDS)],
      providers: [TypeOrmAccountsRepository],
    })
    class TestModule {}
    context = await NestFactory.createApplicationContext(TestModule, { logger: false, abortOnError: false });
    repository = context.get(TypeOrmAccountsRepository);
    transactions = context.get(TransactionHost);
  });
  afterAll(async () => {
    await context.close();
    await services.dispose();
  });

  const account = async () => {
    const id = asAccountId(newId());
    await transactions.run(() =>
      repository.insertAccount({ id, name: 'Rénovations Tremblay', timezone: 'America/Montreal', features: ['public_api'], apiTermsAccepted: true, quoteDefaults: {} as never, createdAt: clock.now() }),
    );
    return id;
  };

  it("writing Systems and team members invalidates the account's cached settings (lead capture) in every process once committed", async () => {
    const accountId = await account();
    const invalidate = jest.spyOn(context.get(AccountCacheInvalidation), 'invalidate');
    try {
      await transactions.run(async () => {
        await repository.insertSystems(accountId, [{ id: newId(), name: 'Main', isMain: true, isActive: true, createdAt: clock.now() }]);
        await repository.insertTeamMembers(accountId, [
          { id: newId(), email: 'julie@tremblay.test', firstName: 'Julie', lastName: 'Roy', isActive: true, isSalesRep: true, canDeleteProspects: false, createdAt: clock.now() },
        ]);
        await repository.insertSystems(accountId, []); // nothing written: nothing invalidated
        expect(invalidate).not.toHaveBeenCalled();
      });
      expect(invalidate.mock.calls).toEqual([
        ['config', accountId],
        ['config', accountId],
      ]);
      expect((await repository.listSystems(accountId)).map((system) => system.name)).toEqual(['Main']);
      expect((await repository.listTeamMembers(accountId)).map((member) => member.email)).toEqual(['julie@tremblay.test']);
    } finally {
      invalidate.mockRestore();
    }
  });

  it('nothing is invalidated when the transaction rolls back', async () => {
    const accountId = await account();
    const invalidate = jest.spyOn(context.get(AccountCacheInvalidation), 'invalidate');
    try {
      await expect(
        transactions.run(async () => {
          await repository.insertSystems(accountId, [{ id: newId(), name: 'Main', isMain: true, isActive: true, createdAt: clock.now() }]);
          throw new Error('rollback');
        }),
      ).rejects.toThrow('rollback');
      expect(invalidate).not.toHaveBeenCalled();
      expect(await repository.listSystems(accountId)).toEqual([]);
    } finally {
      invalidate.mockRestore();
    }
  });
});
