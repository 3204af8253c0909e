import 'reflect-metadata';
import { join } from 'node:path';
import { Client } from 'pg';
import { AppConfig, ensureDatabase } from '@leadflow/shared-platform';
import { migrate } from './migrate';
import { hasNoAccount, provisionBlueprint, ProvisionedDemo } from './seed-demo';

/** Advisory lock key: two `npm start` on one database migrate and seed one after the other. */
const PREPARE_LOCK = 7_460_113;
const DEMO_BLUEPRINT = join(__dirname, '..', 'seed', 'demo-account.json');

/**
 * First step of `npm start` (tools/scripts/start.mjs): creates the database when missing, runs the
 * pending migrations, then, on a database without accounts and unless `SEED_DEMO=false`, provisions
 * the demo account from `tools/seed/demo-account.json` and prints its API keys (the only time they
 * are shown).
 */
async function prepare(): Promise<void> {
  const config = new AppConfig();
  const database = new URL(config.databaseUrl);
  const where = `${database.hostname}:${database.port || 5432}${database.pathname}`;
  await ensureDatabase(config.databaseUrl);
  const lock = new Client({ connectionString: config.databaseUrl });
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [PREPARE_LOCK]);
    const ran = await migrate(config.databaseUrl);
    console.log(ran.length > 0 ? `[start] ${where}: ran ${ran.length} migration(s): ${ran.join(', ')}` : `[start] ${where}: schema up to date`);

    if (process.env.SEED_DEMO === 'false') {
      console.log('[start] SEED_DEMO=false: demo account not provisioned');
    } else if (await hasNoAccount(config.databaseUrl)) {
      printDemo(await provisionBlueprint(DEMO_BLUEPRINT), config);
    } else {
      console.log('[start] the database already has accounts: demo seeding skipped (keys are shown only when created)');
    }
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [PREPARE_LOCK]).catch(() => undefined);
    await lock.end();
  }
}

function printDemo(demo: ProvisionedDemo, config: AppConfig): void {
  const keys = Object.entries(demo.api_keys);
  const width = Math.max(...keys.map(([name]) => name.length));
  const lines = [
    '',
    `Demo account provisioned from tools/seed/demo-account.json: account_id ${demo.account_id}`,
    'API keys (shown once, only a hash is stored; copy them now):',
    ...keys.map(([name, issued]) => `  ${name.padEnd(width)}  ${issued.key}`),
    '',
    'Try it:',
    `  export LEADFLOW_KEY=${demo.api_keys.full?.key ?? keys[0]?.[1].key ?? ''}`,
    `  curl -s ${config.publicBaseUrl}/v1/me -H "Authorization: Bearer $LEADFLOW_KEY"`,
    '',
  ];
  console.log(lines.join('\n'));
}

prepare().catch((error: unknown) => {
  console.error('[start] preparing the database failed:', error);
  process.exit(1);
});
