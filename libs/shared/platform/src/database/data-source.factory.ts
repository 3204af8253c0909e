import { DataSource, DataSourceOptions, MixedList } from 'typeorm';
import { PooledClient } from './pooled-client';
import { resolvePreparedStatements } from './pooler-probe';
import { PreparedStatementClient } from './prepared-statement.client';
import { SnakeNamingStrategy } from './snake-naming.strategy';

/**
 * Options shared by the api, the worker, the migration runner and the tests. Pool: `DATABASE_POOL_SIZE`
 * connections (default 10); parameterised statements run as named prepared statements
 * ({@link PreparedStatementClient}) when `preparedStatements` is true, pg's unnamed statements when false;
 * either way a connection lost while checked out never ends the process ({@link PooledClient}).
 * Without it, `DATABASE_PREPARED_STATEMENTS=false` in the environment turns them off (no pooler probe: the
 * apps and {@link runMigrations} pass what {@link resolvePreparedStatements} decided).
 */
export function dataSourceOptions(
  databaseUrl: string,
  migrations: MixedList<Function> = [],
  entities: MixedList<Function> = [],
  preparedStatements: boolean = process.env.DATABASE_PREPARED_STATEMENTS !== 'false',
): DataSourceOptions {
  return {
    type: 'postgres',
    url: databaseUrl,
    entities,
    migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    namingStrategy: new SnakeNamingStrategy(),
    extra: {
      max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
      Client: preparedStatements ? PreparedStatementClient : PooledClient,
    },
  };
}

/**
 * Runs every pending migration on `databaseUrl` and closes the connection. Returns the names run.
 * Prepared statements as {@link resolvePreparedStatements} decides from `DATABASE_PREPARED_STATEMENTS`
 * (warnings on stderr).
 * @throws ConfigError when `DATABASE_PREPARED_STATEMENTS=true` names a pooler that drops prepared statements.
 */
export async function runMigrations(databaseUrl: string, migrations: MixedList<Function>): Promise<string[]> {
  const setting = process.env.DATABASE_PREPARED_STATEMENTS === undefined ? null : process.env.DATABASE_PREPARED_STATEMENTS !== 'false';
  const prepared = await resolvePreparedStatements(databaseUrl, setting, (message) => console.warn(`[database] ${message}`));
  const dataSource = new DataSource(dataSourceOptions(databaseUrl, migrations, [], prepared));
  await dataSource.initialize();
  try {
    const ran = await dataSource.runMigrations({ transaction: 'each' });
    return ran.map((migration) => migration.name);
  } finally {
    await dataSource.destroy();
  }
}
