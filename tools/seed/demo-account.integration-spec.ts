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

    const demo = await provisionBlueprint(services.config({ ADMIN_TOKEN: undefined }), join(__dirname, 'demo-account.json'));

    expect(Object.keys(demo.api_keys).sort()).toEqual(['capture', 'full']);
    expect(demo.api_keys.full.key).toMatch(/^lf_live_[A-Za-z0-9]{8}_[A-Za-z0-9]{32,}$/);
    expect(demo.systems).toEqual({ Laval: expect.any(String), 'Rive-Nord': expect.any(String), Montréal: expect.any(String) });
    expect(await hasNoAccount(services.databaseUrl)).toBe(false);
  });
});
