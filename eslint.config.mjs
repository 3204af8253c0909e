// Root ESLint flat config (ESLint 9, typescript-eslint 8, @nx/eslint-plugin).
//
// Module boundaries follow docs STYLE.md 3.5: two tag axes on every Nx project
// (`scope:<context>|shared|app` and `type:app|adapters|core|contracts|kernel|platform|testing`),
// the scope rules generated from the one CONTEXTS array below.
//
// `tools/generators/context` appends new contexts to CONTEXTS; a context folder under
// libs/ that is missing from the array makes this config throw, so a context can never
// end up without scope constraints.
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import js from '@eslint/js';
import nxPlugin from '@nx/eslint-plugin';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const require = createRequire(import.meta.url);
const workspaceRoot = dirname(fileURLToPath(import.meta.url));

/** Bounded contexts: each is libs/<context>/{contracts,core,adapters}, tagged scope:<context>. */
export const CONTEXTS = ['accounts', 'contacts', 'usage', 'pipeline', 'messaging', 'operator', 'quotes', 'bookings', 'webhooks', 'automations', 'events'];

// Guard: every context on disk must be listed above, or its projects would have no scope rule.
const contextsOnDisk = readdirSync(join(workspaceRoot, 'libs'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'shared')
  .filter((entry) => ['contracts', 'core', 'adapters'].some((kind) => existsSync(join(workspaceRoot, 'libs', entry.name, kind, 'project.json'))))
  .map((entry) => entry.name);
const unlisted = contextsOnDisk.filter((name) => !CONTEXTS.includes(name));
if (unlisted.length > 0) {
  throw new Error(`eslint.config.mjs: add ${unlisted.map((n) => `'${n}'`).join(', ')} to CONTEXTS (contexts under libs/ without scope constraints)`);
}

// @nx/enforce-module-boundaries reads the *cached* Nx project graph and silently skips itself when
// there is none (fresh clone, `npx eslint .`). Build it here, in-process (nx.json disables the daemon).
// Inside an Nx task (`nx lint <project>`) the parent process has just built it.
if (!process.env.NX_TASK_TARGET_PROJECT) {
  process.env.NX_DAEMON ??= 'false';
  const { createProjectGraphAsync } = require('@nx/devkit');
  await createProjectGraphAsync({ exitOnError: true });
}

/** `pkg` bans only the bare specifier in Nx's matcher; also ban its subpaths. */
const withSubpaths = (packages) => packages.flatMap((p) => (p.endsWith('*') ? [p] : [p, `${p}/*`]));

const INFRASTRUCTURE_PACKAGES = [
  'typeorm',
  '@nestjs/typeorm',
  'bullmq',
  '@nestjs/bullmq',
  '@nestjs/platform-*',
  'fastify',
  '@fastify/*',
  'class-validator',
  'class-transformer',
  'pg',
  'ioredis',
];

/**
 * @param {{ tests: boolean }} options tests: constraints for test files, where every project may
 *   also use type:testing (the app's e2e tests, fakes under src/testing, integration specs).
 */
function depConstraints({ tests }) {
  const testing = tests ? ['type:testing'] : [];
  const typeAxis = [
    { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:adapters', 'type:platform', 'type:contracts', 'type:kernel', ...testing] },
    {
      sourceTag: 'type:adapters',
      onlyDependOnLibsWithTags: ['type:core', 'type:contracts', 'type:platform', 'type:kernel', 'type:testing'],
    },
    {
      sourceTag: 'type:core',
      onlyDependOnLibsWithTags: ['type:contracts', 'type:kernel', ...testing],
      bannedExternalImports: withSubpaths(INFRASTRUCTURE_PACKAGES),
    },
    {
      sourceTag: 'type:contracts',
      onlyDependOnLibsWithTags: ['type:kernel'],
      // @nestjs/cqrs stays allowed: published queries and commands extend Query<R> / Command<R>.
      bannedExternalImports: withSubpaths(['@nestjs/common', '@nestjs/core', ...INFRASTRUCTURE_PACKAGES]),
    },
    {
      sourceTag: 'type:kernel',
      onlyDependOnLibsWithTags: [],
      bannedExternalImports: withSubpaths(['@nestjs/*', ...INFRASTRUCTURE_PACKAGES]),
    },
    { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:kernel', 'type:contracts', ...testing] },
    { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:kernel', 'type:platform', 'type:testing'] },
  ];
  const scopeAxis = [
    // A context sees itself, shared, and other contexts' contracts only (never their core or adapters).
    ...CONTEXTS.map((context) => ({
      sourceTag: `scope:${context}`,
      onlyDependOnLibsWithTags: [`scope:${context}`, 'scope:shared', 'type:contracts'],
    })),
    { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared', 'type:contracts'] },
    { sourceTag: 'scope:app', onlyDependOnLibsWithTags: ['*'] },
  ];
  return [...typeAxis, ...scopeAxis];
}

const boundaries = (tests) => [
  'error',
  {
    enforceBuildableLibDependency: false,
    allowCircularSelfDependency: false,
    allow: [],
    depConstraints: depConstraints({ tests }),
  },
];

const TS_FILES = ['**/*.ts', '**/*.cts', '**/*.mts'];

/**
 * No deep imports into another project (issue 14, item 5): a project is reached through its package's
 * entry point (`@leadflow/contacts-core`), never through its files (`@leadflow/contacts-core/src/domain/…`).
 * Entry points a package declares beside its index (`@leadflow/shared-testing/fakes`) stay allowed.
 */
const NO_DEEP_IMPORTS = {
  group: ['@leadflow/*/src', '@leadflow/*/src/**'],
  message: "Import another project through its package entry point (@leadflow/<project>), not its src/ files.",
};

/**
 * `import-x/no-cycle` (issue 14, item 5): no import cycle between the files of a project. Workspace packages
 * are resolved without following their node_modules symlinks, so they count as external and the rule walks
 * each project's own files only; cycles between projects are @nx/enforce-module-boundaries' (circular
 * dependency). Type-only imports are ignored (erased at compile time).
 */
const importCycles = {
  files: TS_FILES,
  plugins: { 'import-x': importX },
  settings: {
    'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', '.json'], symlinks: false })],
    'import-x/extensions': ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs'],
    'import-x/external-module-folders': ['node_modules'],
  },
  rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true, allowUnsafeDynamicCyclicDependency: false }] },
};
const TEST_FILES = [
  '**/*.spec.ts',
  '**/*.integration-spec.ts',
  '**/*.int-spec.ts',
  '**/*.e2e-spec.ts',
  '**/test/**/*.ts',
  '**/src/testing/**/*.ts',
  '**/jest.config.ts',
  '**/jest.*.config.ts',
];

const NODE_GLOBALS = Object.fromEntries(
  [
    'process',
    'console',
    'Buffer',
    '__dirname',
    '__filename',
    'require',
    'module',
    'exports',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'setImmediate',
    'clearImmediate',
    'queueMicrotask',
    'structuredClone',
    'URL',
    'URLSearchParams',
    'AbortController',
    'AbortSignal',
    'TextEncoder',
    'TextDecoder',
    'fetch',
    'performance',
  ].map((name) => [name, 'readonly']),
);

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', '**/tmp/**', '**/coverage/**', '**/.nx/**', 'bench/results/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: NODE_GLOBALS },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },
  {
    files: ['**/*.ts', '**/*.cts', '**/*.mts', '**/*.js', '**/*.cjs', '**/*.mjs'],
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          args: 'after-used',
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // Empty Nest modules, no-op adapters and fakes are legitimate.
      'no-empty-function': 'off',
      '@typescript-eslint/no-empty-function': 'off',
      '@typescript-eslint/no-extraneous-class': 'off',
      '@typescript-eslint/no-explicit-any': 'warn',
      '@typescript-eslint/no-require-imports': 'off',
      // TypeORM's own API types entity and migration lists as `Function[]` (DataSourceOptions).
      '@typescript-eslint/no-unsafe-function-type': 'off',
    },
  },
  {
    files: TS_FILES,
    plugins: { '@nx': nxPlugin },
    rules: {
      '@nx/enforce-module-boundaries': boundaries(false),
      'no-restricted-imports': ['error', { patterns: [NO_DEEP_IMPORTS] }],
    },
  },
  importCycles,
  {
    files: TEST_FILES,
    rules: {
      '@nx/enforce-module-boundaries': boundaries(true),
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // Domain code is plain TypeScript: no Nest at all, and it never reaches up into application/.
    files: ['libs/*/core/src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            NO_DEEP_IMPORTS,
            { group: ['@nestjs/*'], message: 'core/src/domain is plain TypeScript: no Nest imports (put Nest wiring in application/ or adapters).' },
            { regex: '^(\\.\\./)+application(/|$)', message: 'core/src/domain must not import from ../application (dependencies point inwards).' },
          ],
        },
      ],
    },
  },
);
