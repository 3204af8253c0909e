import 'reflect-metadata';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppConfig, ConfigError, ensureDatabase } from '@leadflow/shared-platform';
import { migrate, withPrepareLock } from './migrate';
import { hasNoAccount, provisionBlueprint } from './seed-demo';

const DEMO_BLUEPRINT = join(__dirname, '..', 'seed', 'demo-account.json');

/** What prepare reports to `npm start` (tools/scripts/start.mjs) over IPC, printed there once the apps are ready. */
export interface Prepared {
  type: 'leadflow:prepared';
  /** `PUBLIC_BASE_URL` (default `http://127.0.0.1:<PORT>`). */
  baseUrl: string;
  /** `provisioned`: the demo account was just created (`demo` holds its raw keys, shown once); else why not. */
  seeding: 'provisioned' | 'accounts_exist' | 'disabled';
  demo: { name: string; account_id: string; api_keys: Record<string, string> } | null;
}

/**
 * First step of `npm start` (tools/scripts/start.mjs): creates the database when missing, runs the
 * pending migrations, then, on a database without accounts and unless `SEED_DEMO=false`, provisions
 * the demo account from `tools/seed/demo-account.json`. Its API keys (the only time they exist in
 * clear) go to `npm start` over IPC, which prints them last, once the apps are ready; run without
 * `npm start` (no IPC channel), this prints them itself. Migrations and seeding run under the
 * transaction-scoped preparation lock ({@link withPrepareLock}), so two `npm start` on one database take
 * turns, and nothing is left locked behind a pooler.
 */
async function prepare(): Promise<void> {
  const config = new AppConfig();
  const database = new URL(config.databaseUrl);
  const where = `${database.hostname}:${database.port || 5432}${database.pathname}`;
  await ensureDatabase(config.databaseUrl);
  const prepared = await withPrepareLock(config.databaseUrl, async (): Promise<Prepared> => {
    const ran = await migrate(config.databaseUrl);
    console.log(ran.length > 0 ? `[start] ${where}: ran ${ran.length} migration(s): ${ran.join(', ')}` : `[start] ${where}: schema up to date`);

    const base = { type: 'leadflow:prepared' as const, baseUrl: config.publicBaseUrl };
    if (process.env.SEED_DEMO === 'false') {
      console.log('[start] SEED_DEMO=false: demo account not provisioned');
      return { ...base, seeding: 'disabled', demo: null };
    }
    if (await hasNoAccount(config.databaseUrl)) {
      const demo = await provisionBlueprint(DEMO_BLUEPRINT);
      const { name } = JSON.parse(await readFile(DEMO_BLUEPRINT, 'utf8')) as { name: string };
      const apiKeys = Object.fromEntries(Object.entries(demo.api_keys).map(([keyName, issued]) => [keyName, issued.key]));
      console.log(`[start] demo account provisioned from tools/seed/demo-account.json (${Object.keys(apiKeys).length} API keys, printed once the apps are ready)`);
      return { ...base, seeding: 'provisioned', demo: { name, account_id: demo.account_id, api_keys: apiKeys } };
    }
    console.log('[start] the database already has accounts: demo seeding skipped (keys are shown only when created)');
    return { ...base, seeding: 'accounts_exist', demo: null };
  });
  await report(prepared);
}

/** To `npm start` over IPC (then the channel is closed, so the message is read before the exit), else on stdout. */
async function report(prepared: Prepared): Promise<void> {
  const send = process.send?.bind(process);
  if (send) {
    await new Promise<void>((resolve, reject) => send(prepared, undefined, {}, (error: Error | null) => (error ? reject(error) : resolve())));
    process.disconnect?.();
    return;
  }
  if (!prepared.demo) return;
  console.log(`Demo account "${prepared.demo.name}" (account_id ${prepared.demo.account_id}). API keys, shown this once (only a hash is stored):`);
  for (const [name, key] of Object.entries(prepared.demo.api_keys)) console.log(`  ${name}  ${key}`);
}

prepare().catch((error: unknown) => {
  // A bad environment variable: one line per variable, exit EX_CONFIG (start.mjs then stops without more noise).
  if (error instanceof ConfigError) {
    for (const problem of error.problems) console.error(`[start] invalid configuration: ${problem}`);
    process.exit(ConfigError.EXIT_CODE);
  }
  console.error('[start] preparing the database failed:', error);
  process.exit(1);
});
