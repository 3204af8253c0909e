import { installPackagesTask, joinPathFragments, logger, names, Tree, writeJson } from '@nx/devkit';

/**
 * `npm run generate:context -- --name=quotes` (add `--dry-run` to preview).
 *
 * Scaffolds the three Nx projects of a bounded context with the same inside (STYLE.md 3.1):
 *   libs/<name>/contracts  @leadflow/<name>-contracts  [scope:<name>, type:contracts]
 *   libs/<name>/core       @leadflow/<name>-core       [scope:<name>, type:core]
 *   libs/<name>/adapters   @leadflow/<name>-adapters   [scope:<name>, type:adapters]
 * and adds <name> to CONTEXTS in eslint.config.mjs so the scope rules cover it.
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

  // core: domain (plain TypeScript) + application (handlers, ports as abstract classes).
  tree.write(
    `${contextRoot}/core/src/domain/${n.fileName}.errors.ts`,
    `/**
 * Errors of the ${name} context: DomainError subclasses (\`@leadflow/shared-kernel\`) with stable codes
 * from the spec; the HTTP status comes from the code (shared-platform's error catalog).
 */
export {};
`,
  );
  tree.write(`${contextRoot}/core/src/application/ports/.gitkeep`, '');
  tree.write(`${contextRoot}/core/src/index.ts`, `export * from './domain/${n.fileName}.errors';\n`);

  // adapters: TypeORM, HTTP and BullMQ; the two Nest modules the apps import.
  const migrationClass = `${n.className}Init${timestamp}`;
  const migrationFile = `${timestamp}-${n.fileName}-init`;
  tree.write(
    `${contextRoot}/adapters/src/infrastructure/persistence/migrations/${migrationFile}.ts`,
    `import { MigrationInterface, QueryRunner } from 'typeorm';

/** Schema \`${schema}\`: owned by the ${name} context (tables, indexes leading with account_id). */
export class ${migrationClass} implements MigrationInterface {
  name = '${migrationClass}';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(\`CREATE SCHEMA IF NOT EXISTS ${schema}\`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(\`DROP SCHEMA IF EXISTS ${schema} CASCADE\`);
  }
}
`,
  );
  tree.write(
    `${contextRoot}/adapters/src/${n.fileName}-http.module.ts`,
    `import { Module } from '@nestjs/common';

/** The ${name} context's controllers and handlers, imported by the api app. */
@Module({})
export class ${n.className}HttpModule {}
`,
  );
  tree.write(
    `${contextRoot}/adapters/src/${n.fileName}-jobs.module.ts`,
    `import { Module } from '@nestjs/common';

/** The ${name} context's BullMQ processors and subscribers, imported by the worker app. */
@Module({})
export class ${n.className}JobsModule {}
`,
  );
  tree.write(
    `${contextRoot}/adapters/src/index.ts`,
    `import { ${migrationClass} } from './infrastructure/persistence/migrations/${migrationFile}';

export * from './${n.fileName}-http.module';
export * from './${n.fileName}-jobs.module';

/** Migrations of the \`${schema}\` schema, in order. */
export const ${n.propertyName}Migrations = [${migrationClass}];
`,
  );
  tree.write(`${contextRoot}/adapters/test/.gitkeep`, '');

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
