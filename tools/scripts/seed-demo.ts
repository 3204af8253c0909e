import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Client } from 'pg';
import { AppConfig } from '@leadflow/shared-platform';
import { createApiApp } from '../../apps/api/src/bootstrap';

/** The 201 body of `POST /admin/v1/accounts` (operator-api), as far as the seed reads it. */
export interface ProvisionedDemo {
  account_id: string;
  api_keys: Record<string, { id: string; key: string; prefix: string }>;
  [member: string]: unknown;
}

/** True when the database holds no account yet (the demo is seeded only then). */
export async function hasNoAccount(databaseUrl: string): Promise<boolean> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM accounts.accounts) AS any');
    return !result.rows[0].any;
  } finally {
    await client.end();
  }
}

/**
 * Provisions the account blueprint at `blueprintPath` through the operator API itself: the api app is
 * booted in-process (not listening) with a one-time admin token, and the blueprint is sent as
 * `POST /admin/v1/accounts` through Fastify's injection, so it passes the same guard, validation,
 * controller and single transaction as an operator's request. `ADMIN_TOKEN` need not be set.
 * `configWith` builds the app's configuration with the given overrides (default: the environment).
 */
export async function provisionBlueprint(
  blueprintPath: string,
  configWith: (overrides: Record<string, string>) => AppConfig = (overrides) => new AppConfig({ ...process.env, ...overrides }),
): Promise<ProvisionedDemo> {
  const blueprint = JSON.parse(await readFile(blueprintPath, 'utf8')) as unknown;
  const token = randomBytes(32).toString('hex');
  const app = await createApiApp(configWith({ ADMIN_TOKEN: token, LOG_LEVEL: process.env.SEED_LOG_LEVEL ?? 'warn' }));
  try {
    const response = await app.inject({
      method: 'POST',
      url: '/admin/v1/accounts',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify(blueprint),
    });
    if (response.statusCode !== 201) {
      throw new Error(`Provisioning ${blueprintPath} failed: ${response.statusCode} ${response.body}`);
    }
    return JSON.parse(response.body) as ProvisionedDemo;
  } finally {
    await app.close();
  }
}
