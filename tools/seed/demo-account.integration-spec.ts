import { join } from 'node:path';
import { createTestServices, TestServices } from '@leadflow/shared-testing';
import { hasNoAccount, provisionBlueprint } from '../scripts/seed-demo';

/** operator-api › Demo data: `npm start` provisions tools/seed/demo-account.json through POST /admin/v1/accounts. */
describe('demo account blueprint', () => {
  let services: TestServices;

  beforeAll(async () => {
    services = await createTestServices();
  });
  afterAll(() => services.dispose());

  it('is accepted by the operator API and yields the full and capture keys', async () => {
    expect(await hasNoAccount(services.databaseUrl)).toBe(true);

    const demo = await provisionBlueprint(join(__dirname, 'demo-account.json'), (overrides) => services.config(overrides));

    expect(Object.keys(demo.api_keys).sort()).toEqual(['capture', 'full']);
    expect(demo.api_keys.full.key).toMatch(/^lf_live_[A-Za-z0-9]{8}_[A-Za-z0-9]{32,}$/);
    expect(demo.systems).toEqual({ Laval: expect.any(String), 'Rive-Nord': expect.any(String), Montréal: expect.any(String) });
    expect(Object.keys(demo.team_members as object)).toHaveLength(4);
    expect(demo.pipelines).toMatchObject({ ventes: { stages: { nouveau: expect.any(String) } }, commercial: { id: expect.any(String) } });
    expect(Object.keys(demo.custom_fields as object)).toContain('type_projet');
    expect(Object.keys(demo.senders as object)).toHaveLength(2);
    expect(await hasNoAccount(services.databaseUrl)).toBe(false);
  });
});
