import { DataSource, DataSourceOptions, MixedList } from 'typeorm';
import { PreparedStatementClient } from './prepared-statement.client';
import { SnakeNamingStrategy } from './snake-naming.strategy';

/**
 * Options shared by the api, the worker, the migration runner and the tests. Pool: `DATABASE_POOL_SIZE`
 * connections (default 10); parameterised statements run as named prepared statements
 * ({@link PreparedStatementClient}) unless `DATABASE_PREPARED_STATEMENTS=false` (for PgBouncer in
 * transaction mode, where a connection's prepared statements do not follow the client).
 */
export function dataSourceOptions(
  databaseUrl: string,
  migrations: MixedList<Function> = [],
  entities: MixedList<Function> = [],
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
      ...(process.env.DATABASE_PREPARED_STATEMENTS === 'false' ? {} : { Client: PreparedStatementClient }),
    },
  };
}

/** Runs every pending migration on `databaseUrl` and closes the connection. Returns the names run. */
export async function runMigrations(databaseUrl: string, migrations: MixedList<Function>): Promise<string[]> {
  const dataSource = new DataSource(dataSourceOptions(databaseUrl, migrations));
  await dataSource.initialize();
  try {
    const ran = await dataSource.runMigrations({ transaction: 'each' });
    return ran.map((migration) => migration.name);
  } finally {
    await dataSource.destroy();
  }
}
