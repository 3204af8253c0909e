import 'reflect-metadata';
import { AppConfig, ensureDatabase, runMigrations } from '@leadflow/shared-platform';
import { ALL_MIGRATIONS } from '../../apps/api/src/database/all-migrations';

/** Creates the database when missing and runs every pending migration (`ALL_MIGRATIONS`). Returns the names run. */
export async function migrate(databaseUrl: string): Promise<string[]> {
  await ensureDatabase(databaseUrl);
  return runMigrations(databaseUrl, ALL_MIGRATIONS);
}

/** `npm run migrate` */
if (require.main === module) {
  const { databaseUrl } = new AppConfig();
  migrate(databaseUrl).then(
    (ran) => console.log(ran.length > 0 ? `Migrations run: ${ran.join(', ')}` : 'No pending migration.'),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
