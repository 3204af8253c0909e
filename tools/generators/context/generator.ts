import { installPackagesTask, joinPathFragments, logger, names, Tree, writeJson } from '@nx/devkit';

/**
 * `npm run generate:context -- --name=quotes` (add `--dry-run` to preview).
 *
 * Scaffolds the three Nx projects of a bounded context with the same inside (STYLE.md 3.1):
 *   libs/<name>/contracts  @leadflow/<name>-contracts  [scope:<name>, type:contracts]
 *   libs/<name>/core       @leadflow/<name>-core       [scope:<name>, type:core]
 *   libs/<name>/adapters   @leadflow/<name>-adapters   [scope:<name>, type:adapters]
 * and adds <name> to CONTEXTS in eslint.config.mjs so the scope rules cover it.
 *
 * The inside is the shape every context has (issue 14, items 2 and 4): one folder per use case in core
 * (`application/commands/<use-case>/` and `application/queries/<use-case>/`: command or query, handler
 * and its unit spec; here an example `create-<name>-item` command and `get-<name>-item` query), a port
 * with its in-memory fake (`src/testing/`), ONE handler list (`<NAME>_HANDLERS` in
 * `<name>-core.providers.ts`), and ONE core module in adapters (`<name>-core.module.ts`: the handlers and
 * port bindings, declared once) imported by both `<name>-http.module.ts` and `<name>-jobs.module.ts`.
 * `generator.spec.ts` runs it into a virtual tree and lints every file with the repo's ESLint.
 */
export interface ContextGeneratorSchema {
  name: string;
  migrationTimestamp?: number;
  skipInstall?: boolean;
}

type Kind = 'contracts' | 'core' | 'adapters';
const KINDS: Kind[] = ['contracts', 'core', 'adapters'];
const RESERVED = new Set(['shared', 'app', 'apps', 'tools', 'testing']);
const NAME_PATTERN = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const ESLINT_CONFIG = 'eslint.config.mjs';
const CONTEXTS_PATTERN = /export const CONTEXTS = \[([^\]]*)\];/;

/** The project.json every Nx project of this workspace has (apps/* and libs/*\/*). */
export function projectJson(root: string, name: string, tags: string[], projectType: 'application' | 'library') {
  const depth = root.split('/').length;
  return {
    name,
    $schema: `${'../'.repeat(depth)}node_modules/nx/schemas/project-schema.json`,
    sourceRoot: `${root}/src`,
    projectType,
    tags,
    targets: {
      lint: { executor: '@nx/eslint:lint' },
      // the three test tiers; their commands are nx.json's targetDefaults (jest.unit / .integration / .e2e configs)
      test: {},
      integration: {},
      e2e: {},
    },
  };
}

export async function contextGenerator(tree: Tree, options: ContextGeneratorSchema) {
  const name = options.name?.trim();
  if (!name || !NAME_PATTERN.test(name)) {
    throw new Error(`--name must be kebab-case (e.g. quotes, lead-scoring); got "${options.name ?? ''}".`);
  }
  if (RESERVED.has(name)) {
    throw new Error(`"${name}" is reserved.`);
  }
  const contextRoot = joinPathFragments('libs', name);
  if (tree.exists(contextRoot)) {
    throw new Error(`${contextRoot} already exists.`);
  }

  const n = names(name); // className: LeadScoring, propertyName: leadScoring, fileName: lead-scoring
  const schema = name.replace(/-/g, '_'); // PostgreSQL schema: a plain identifier, no quoting needed
  const timestamp = options.migrationTimestamp ?? Date.now();

  for (const kind of KINDS) {
    const root = joinPathFragments(contextRoot, kind);
    writeJson(tree, `${root}/package.json`, {
      name: `@leadflow/${name}-${kind}`,
      version: '0.0.0',
      private: true,
      main: 'src/index.ts',
      types: 'src/index.ts',
    });
    writeJson(tree, `${root}/project.json`, projectJson(root, `${name}-${kind}`, [`scope:${name}`, `type:${kind}`], 'library'));
  }

  // contracts: what other contexts may import.
  tree.write(
    `${contextRoot}/contracts/src/index.ts`,
    `/**
 * Public API of the ${name} context: integration events (\`<thing>-<happened>.v1.ts\`), published queries
 * and commands (\`*.query.ts\`, \`*.command.ts\`) and their result types. Nothing else crosses the boundary.
 */
export {};
`,
  );

  writeCore(tree, contextRoot, name, n);
  writeAdapters(tree, contextRoot, name, n, schema, timestamp);

  addToContexts(tree, name);

  logger.info(`
Next steps for the ${name} context:
  - apps/api/src/app.module.ts: import ${n.className}HttpModule from '@leadflow/${name}-adapters'
  - apps/worker/src/worker.module.ts: import ${n.className}JobsModule from '@leadflow/${name}-adapters'
  - apps/api/src/database/all-migrations.ts: append ...${n.propertyName}Migrations
${options.skipInstall ? `  - run \`npm install\` once to link @leadflow/${name}-{contracts,core,adapters}\n` : ''}`);

  return () => {
    if (!options.skipInstall) {
      installPackagesTask(tree, true);
    }
  };
}

type Names = ReturnType<typeof names>;

/** Core: plain domain, one folder per use case, the port and its in-memory fake, the one handler list. */
function writeCore(tree: Tree, contextRoot: string, name: string, n: Names): void {
  const core = `${contextRoot}/core/src`;
  const item = `${n.className}Item`; // the example aggregate's name, e.g. LeadScoringItem
  const itemFile = `${n.fileName}-item`;
  const HANDLERS = `${n.constantName}_HANDLERS`;
  tree.write(
    `${core}/domain/${n.fileName}.errors.ts`,
    `import { ResourceNotFoundError } from '@leadflow/shared-kernel';

/**
 * Errors of the ${name} context: DomainError subclasses (\`@leadflow/shared-kernel\`) with stable codes
 * from the spec; the HTTP status comes from the code (shared-platform's error catalog).
 */

/** 404 \`resource_not_found\`: no such ${name} item in the account. */
export class ${item}NotFoundError extends ResourceNotFoundError {
  constructor() {
    super('resource_not_found', 'No such ${name} item.', { resource: '${itemFile}' });
  }
}
`,
  );
  tree.write(
    `${core}/domain/${itemFile}.ts`,
    `import type { AccountId } from '@leadflow/shared-kernel';

/** An item of the ${name} context (example aggregate state: replace with the context's own). */
export interface ${item} {
  id: string;
  accountId: AccountId;
  name: string;
  createdAt: Date;
}
`,
  );
  tree.write(
    `${core}/application/ports/${itemFile}.repository.port.ts`,
    `import type { AccountId } from '@leadflow/shared-kernel';
import type { ${item} } from '../../domain/${itemFile}';

/** Persistence of ${name} items (abstract class: also the DI token). Every method filters on the account. */
export abstract class ${item}Repository {
  abstract save(item: ${item}): Promise<void>;
  /** The item of the account, null when missing or another account's. */
  abstract find(accountId: AccountId, id: string): Promise<${item} | null>;
}
`,
  );
  tree.write(
    `${core}/application/commands/create-${itemFile}/create-${itemFile}.command.ts`,
    `import { Command } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';
import type { ${item} } from '../../../domain/${itemFile}';

/** Creates a ${name} item (example command). */
export class Create${item}Command extends Command<${item}> {
  constructor(
    readonly accountId: AccountId,
    readonly name: string,
  ) {
    super();
  }
}
`,
  );
  tree.write(
    `${core}/application/commands/create-${itemFile}/create-${itemFile}.handler.ts`,
    `import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, newId } from '@leadflow/shared-kernel';
import type { ${item} } from '../../../domain/${itemFile}';
import { ${item}Repository } from '../../ports/${itemFile}.repository.port';
import { Create${item}Command } from './create-${itemFile}.command';

/** Stores a new ${name} item of the account and answers it. */
@CommandHandler(Create${item}Command)
export class Create${item}Handler implements ICommandHandler<Create${item}Command> {
  constructor(
    private readonly items: ${item}Repository,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, name }: Create${item}Command): Promise<${item}> {
    const item: ${item} = { id: newId(), accountId, name: name.trim(), createdAt: this.clock.now() };
    await this.items.save(item);
    return item;
  }
}
`,
  );
  tree.write(
    `${core}/application/commands/create-${itemFile}/create-${itemFile}.handler.spec.ts`,
    `import { asAccountId, FixedClock, newId } from '@leadflow/shared-kernel';
import { InMemory${item}Repository } from '../../../testing/in-memory-${itemFile}.repository';
import { Create${item}Command } from './create-${itemFile}.command';
import { Create${item}Handler } from './create-${itemFile}.handler';

describe('Create${item}Handler (in-memory ports)', () => {
  it('stores the item of the account, name trimmed, created now', async () => {
    const items = new InMemory${item}Repository();
    const now = new Date('2026-01-01T00:00:00.000Z');
    const accountId = asAccountId(newId());
    const item = await new Create${item}Handler(items, new FixedClock(now)).execute(new Create${item}Command(accountId, '  First  '));
    expect(item).toEqual({ id: expect.any(String), accountId, name: 'First', createdAt: now });
    expect(await items.find(accountId, item.id)).toEqual(item);
  });
});
`,
  );
  tree.write(
    `${core}/application/queries/get-${itemFile}/get-${itemFile}.query.ts`,
    `import { Query } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';
import type { ${item} } from '../../../domain/${itemFile}';

/** One ${name} item of the account (example query); 404 \`resource_not_found\` otherwise. */
export class Get${item}Query extends Query<${item}> {
  constructor(
    readonly accountId: AccountId,
    readonly id: string,
  ) {
    super();
  }
}
`,
  );
  tree.write(
    `${core}/application/queries/get-${itemFile}/get-${itemFile}.handler.ts`,
    `import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ${item}NotFoundError } from '../../../domain/${n.fileName}.errors';
import type { ${item} } from '../../../domain/${itemFile}';
import { ${item}Repository } from '../../ports/${itemFile}.repository.port';
import { Get${item}Query } from './get-${itemFile}.query';

/** The item of the account; another account's id answers like a missing one (404 \`resource_not_found\`). */
@QueryHandler(Get${item}Query)
export class Get${item}Handler implements IQueryHandler<Get${item}Query> {
  constructor(private readonly items: ${item}Repository) {}

  async execute({ accountId, id }: Get${item}Query): Promise<${item}> {
    const item = await this.items.find(accountId, id);
    if (!item) throw new ${item}NotFoundError();
    return item;
  }
}
`,
  );
  tree.write(
    `${core}/application/queries/get-${itemFile}/get-${itemFile}.handler.spec.ts`,
    `import { asAccountId, DomainError, newId } from '@leadflow/shared-kernel';
import { InMemory${item}Repository } from '../../../testing/in-memory-${itemFile}.repository';
import { Get${item}Handler } from './get-${itemFile}.handler';
import { Get${item}Query } from './get-${itemFile}.query';

describe('Get${item}Handler (in-memory ports)', () => {
  const accountId = asAccountId(newId());
  const item = { id: newId(), accountId, name: 'First', createdAt: new Date('2026-01-01T00:00:00.000Z') };

  it('answers the item of the account', async () => {
    const items = new InMemory${item}Repository([item]);
    expect(await new Get${item}Handler(items).execute(new Get${item}Query(accountId, item.id))).toEqual(item);
  });

  it('another account reads it as missing: 404 resource_not_found', async () => {
    const items = new InMemory${item}Repository([item]);
    const error = await new Get${item}Handler(items).execute(new Get${item}Query(asAccountId(newId()), item.id)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'resource_not_found', details: { resource: '${itemFile}' } });
  });
});
`,
  );
  tree.write(
    `${core}/testing/in-memory-${itemFile}.repository.ts`,
    `import type { AccountId } from '@leadflow/shared-kernel';
import { ${item}Repository } from '../application/ports/${itemFile}.repository.port';
import type { ${item} } from '../domain/${itemFile}';

/** In-memory {@link ${item}Repository} for unit specs (a fake, not a jest mock): same tenant filter as PostgreSQL. */
export class InMemory${item}Repository extends ${item}Repository {
  private readonly items = new Map<string, ${item}>();

  constructor(initial: ${item}[] = []) {
    super();
    for (const item of initial) this.items.set(item.id, { ...item });
  }

  async save(item: ${item}): Promise<void> {
    this.items.set(item.id, { ...item });
  }

  async find(accountId: AccountId, id: string): Promise<${item} | null> {
    const item = this.items.get(id);
    return item && item.accountId === accountId ? { ...item } : null;
  }
}
`,
  );
  tree.write(
    `${core}/application/${n.fileName}-core.providers.ts`,
    `import { Create${item}Handler } from './commands/create-${itemFile}/create-${itemFile}.handler';
import { Get${item}Handler } from './queries/get-${itemFile}/get-${itemFile}.handler';

/** Every command and query handler of the ${name} context, declared once: ${n.className}CoreModule registers them for both the api and the worker. */
export const ${HANDLERS} = [Create${item}Handler, Get${item}Handler];
`,
  );
  tree.write(
    `${core}/index.ts`,
    `export * from './domain/${n.fileName}.errors';
export * from './domain/${itemFile}';
export * from './application/${n.fileName}-core.providers';
export * from './application/ports/${itemFile}.repository.port';
export * from './application/commands/create-${itemFile}/create-${itemFile}.command';
export * from './application/queries/get-${itemFile}/get-${itemFile}.query';
`,
  );
}

/** Adapters: the one core module (handlers + port bindings), imported by the HTTP and the jobs modules. */
function writeAdapters(tree: Tree, contextRoot: string, name: string, n: Names, schema: string, timestamp: number): void {
  const adapters = `${contextRoot}/adapters/src`;
  const item = `${n.className}Item`;
  const itemFile = `${n.fileName}-item`;
  const HANDLERS = `${n.constantName}_HANDLERS`;
  const migrationClass = `${n.className}Init${timestamp}`;
  const migrationFile = `${timestamp}-${n.fileName}-init`;
  tree.write(
    `${adapters}/infrastructure/persistence/migrations/${migrationFile}.ts`,
    `import { MigrationInterface, QueryRunner } from 'typeorm';

/** Schema \`${schema}\`: owned by the ${name} context (tables, indexes leading with account_id). */
export class ${migrationClass} implements MigrationInterface {
  name = '${migrationClass}';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(\`CREATE SCHEMA IF NOT EXISTS ${schema}\`);
    await queryRunner.query(
      \`CREATE TABLE ${schema}.items (account_id uuid NOT NULL, id uuid NOT NULL, name text NOT NULL, created_at timestamptz NOT NULL, PRIMARY KEY (account_id, id))\`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(\`DROP SCHEMA IF EXISTS ${schema} CASCADE\`);
  }
}
`,
  );
  tree.write(
    `${adapters}/infrastructure/persistence/postgres-${itemFile}.repository.ts`,
    `import { Injectable } from '@nestjs/common';
import { asAccountId, AccountId } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import { ${item}, ${item}Repository } from '@leadflow/${name}-core';

interface ItemRow {
  id: string;
  account_id: string;
  name: string;
  created_at: Date;
}

/** {@link ${item}Repository} on \`${schema}.items\` (primary key \`(account_id, id)\`), in the current transaction. */
@Injectable()
export class Postgres${item}Repository extends ${item}Repository {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  async save(item: ${item}): Promise<void> {
    await this.transactions.manager.query(
      'INSERT INTO ${schema}.items (account_id, id, name, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (account_id, id) DO UPDATE SET name = EXCLUDED.name',
      [item.accountId, item.id, item.name, item.createdAt],
    );
  }

  async find(accountId: AccountId, id: string): Promise<${item} | null> {
    const rows: ItemRow[] = await this.transactions.manager.query('SELECT id, account_id, name, created_at FROM ${schema}.items WHERE account_id = $1 AND id::text = $2', [accountId, id]);
    const row = rows[0];
    return row ? { id: row.id, accountId: asAccountId(row.account_id), name: row.name, createdAt: row.created_at } : null;
  }
}
`,
  );
  tree.write(
    `${adapters}/${n.fileName}-core.module.ts`,
    `import { Module } from '@nestjs/common';
import { ${HANDLERS}, ${item}Repository } from '@leadflow/${name}-core';
import { Postgres${item}Repository } from './infrastructure/persistence/postgres-${itemFile}.repository';

/**
 * The ${name} context's one core module: every handler ({@link ${HANDLERS}}, listed once in core) and
 * every port binding, imported by both ${n.className}HttpModule and ${n.className}JobsModule. \`UnitOfWork\`,
 * \`Journal\` and \`Clock\` come from PlatformModule.
 */
@Module({
  providers: [...${HANDLERS}, { provide: ${item}Repository, useClass: Postgres${item}Repository }],
})
export class ${n.className}CoreModule {}
`,
  );
  tree.write(
    `${adapters}/${n.fileName}-http.module.ts`,
    `import { Module } from '@nestjs/common';
import { ${n.className}CoreModule } from './${n.fileName}-core.module';

/** The ${name} context for the api app: its controllers (interface/http/); handlers and ports from ${n.className}CoreModule. */
@Module({
  imports: [${n.className}CoreModule],
  controllers: [],
})
export class ${n.className}HttpModule {}
`,
  );
  tree.write(
    `${adapters}/${n.fileName}-jobs.module.ts`,
    `import { Module } from '@nestjs/common';
import { ${n.className}CoreModule } from './${n.fileName}-core.module';

/** The ${name} context in the worker app: its BullMQ processors and subscribers (interface/jobs/); handlers and ports from ${n.className}CoreModule. */
@Module({
  imports: [${n.className}CoreModule],
  providers: [],
})
export class ${n.className}JobsModule {}
`,
  );
  tree.write(
    `${adapters}/index.ts`,
    `import { ${migrationClass} } from './infrastructure/persistence/migrations/${migrationFile}';

export * from './${n.fileName}-http.module';
export * from './${n.fileName}-jobs.module';

/** Migrations of the \`${schema}\` schema, in order. */
export const ${n.propertyName}Migrations = [${migrationClass}];
`,
  );
  tree.write(`${contextRoot}/adapters/test/.gitkeep`, '');
}

/** Adds the context to the CONTEXTS array that eslint.config.mjs generates its scope rules from. */
function addToContexts(tree: Tree, name: string): void {
  const config = tree.read(ESLINT_CONFIG, 'utf-8');
  const match = config?.match(CONTEXTS_PATTERN);
  if (!config || !match) {
    throw new Error(`${ESLINT_CONFIG}: no \`export const CONTEXTS = [...];\` line to add "${name}" to.`);
  }
  const contexts = [...match[1].matchAll(/'([^']+)'/g)].map((m) => m[1]);
  if (contexts.includes(name)) return;
  const line = `export const CONTEXTS = [${[...contexts, name].map((c) => `'${c}'`).join(', ')}];`;
  tree.write(ESLINT_CONFIG, config.replace(CONTEXTS_PATTERN, line));
}

export default contextGenerator;
