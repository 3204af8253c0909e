#!/usr/bin/env node
/**
 * `npm run build` (issue 17, item 5): compiles the api, the worker and the migration runner to
 * JavaScript with SWC, in `dist/` (or the directory given as the first argument), keeping the source
 * layout: `dist/apps/api/src/main.js`, `dist/apps/worker/src/main.js`, `dist/tools/scripts/migrate.js`,
 * `dist/libs/<context>/<project>/src/...`.
 *
 * - The same SWC settings as `npm start` and Jest (the root `.swcrc`): legacy decorators with decorator
 *   metadata (Nest's dependency injection reads the constructor parameter types), no define semantics
 *   for class fields, ES2022, CommonJS.
 * - `@leadflow/<project>` imports are rewritten to relative paths (`jsc.paths`, one entry per workspace
 *   package, from its `package.json` `main`), so the output needs no workspace links and no TypeScript.
 * - Compiled: `apps/{api,worker}/src` and every library's `src` except test code (`*.spec.ts`,
 *   `src/testing/`, `libs/shared/testing`) and the client SDK (`libs/sdk`, not part of the server).
 * - Copied beside the output, at the same relative place, for the files the code reads at run time:
 *   `apps/api/openapi/` (served descriptions and collections), `CHANGELOG.md` (the changelog page),
 *   and any non-TypeScript file inside a compiled `src` directory; redoc's standalone bundle goes to
 *   `<out>/node_modules/redoc/` (see VENDORED), so the image needs no redoc package.
 * - Migrations are classes imported by `apps/api/src/database/all-migrations.ts`, not globbed files, so
 *   the compiled runner and apps find them in the output as they are.
 *
 * Source maps are written beside each file (`node --enable-source-maps` uses them). Takes a few seconds.
 */
import { transformFile } from '@swc/core';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Source directories compiled (relative to the repository root). */
const APP_SOURCES = ['apps/api/src', 'apps/worker/src'];
/** Single files compiled besides (entry points outside the apps). */
const EXTRA_FILES = ['tools/scripts/migrate.ts'];
/** Libraries left out: test support and the client SDK. */
const EXCLUDED_LIBRARIES = new Set(['libs/shared/testing', 'libs/sdk']);
/** Files and directories copied as they are (read at run time relative to the compiled code). */
const ASSETS = ['apps/api/openapi', 'CHANGELOG.md'];
/**
 * Files of development-only packages the compiled code reads at run time, copied to `<out>/node_modules/`
 * where Node's resolution finds them first: of redoc (a devDependency: its 103 packages are React and the
 * rest of its build) the api serves one file, the standalone bundle (`require.resolve` in
 * docs.controller.ts), with its licence.
 */
const VENDORED = ['node_modules/redoc/package.json', 'node_modules/redoc/LICENSE', 'node_modules/redoc/bundles/redoc.standalone.js', 'node_modules/redoc/bundles/redoc.standalone.js.LICENSE.txt'];

/** The root `.swcrc`'s settings, plus the `@leadflow/*` path rewriting. */
async function swcOptions(paths) {
  const swcrc = JSON.parse(await readFile(join(ROOT, '.swcrc'), 'utf8'));
  delete swcrc.$schema;
  return {
    ...swcrc,
    swcrc: false,
    configFile: false,
    sourceMaps: true,
    jsc: { ...swcrc.jsc, baseUrl: ROOT, paths },
  };
}

/** Every workspace library `libs/<context>/<project>` (and `libs/<name>` with a package.json). */
async function libraries() {
  const found = [];
  for (const group of await readdir(join(ROOT, 'libs'), { withFileTypes: true })) {
    if (!group.isDirectory()) continue;
    const groupDir = `libs/${group.name}`;
    if (existsSync(join(ROOT, groupDir, 'package.json'))) found.push(groupDir);
    for (const project of await readdir(join(ROOT, groupDir), { withFileTypes: true })) {
      if (project.isDirectory() && existsSync(join(ROOT, groupDir, project.name, 'package.json'))) found.push(`${groupDir}/${project.name}`);
    }
  }
  return found;
}

/** `jsc.paths`: `@leadflow/x` → the package's `main`, `@leadflow/x/*` → inside the package. */
async function aliasPaths(projectDirs) {
  const paths = {};
  for (const dir of projectDirs) {
    const manifest = JSON.parse(await readFile(join(ROOT, dir, 'package.json'), 'utf8'));
    if (!manifest.name?.startsWith('@leadflow/')) continue;
    paths[manifest.name] = [`${dir}/${manifest.main ?? 'src/index.ts'}`];
    paths[`${manifest.name}/*`] = [`${dir}/*`];
  }
  return paths;
}

/** Files under `dir` (relative paths from the root), recursively. */
async function walk(dir) {
  const files = [];
  for (const entry of await readdir(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) files.push(...(await walk(path)));
    else files.push(path);
  }
  return files;
}

const isTestCode = (path) => /\.(spec|integration-spec|e2e-spec)\.ts$/.test(path) || path.includes('/src/testing/') || path.endsWith('.d.ts');

export async function build(outDir = join(ROOT, 'dist')) {
  const started = Date.now();
  const out = resolve(outDir);
  await rm(out, { recursive: true, force: true });
  const projects = await libraries();
  const sourceDirs = [...APP_SOURCES, ...projects.filter((dir) => !EXCLUDED_LIBRARIES.has(dir)).map((dir) => `${dir}/src`)].filter((dir) => existsSync(join(ROOT, dir)));
  const options = await swcOptions(await aliasPaths([...projects, 'apps/api', 'apps/worker']));

  const sources = [...EXTRA_FILES];
  const copies = [...ASSETS, ...VENDORED.filter((file) => existsSync(join(ROOT, file)))];
  for (const dir of sourceDirs) {
    for (const file of await walk(dir)) {
      if (file.endsWith('.ts')) {
        if (!isTestCode(file)) sources.push(file);
      } else if (!file.endsWith('.gitkeep') && !file.includes('/src/testing/')) copies.push(file);
    }
  }

  await Promise.all(
    sources.map(async (file) => {
      const target = join(out, file.replace(/\.ts$/, '.js'));
      const { code, map } = await transformFile(join(ROOT, file), { ...options, filename: join(ROOT, file), sourceFileName: relative(dirname(target), join(ROOT, file)) });
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, `${code}\n//# sourceMappingURL=${target.slice(dirname(target).length + 1)}.map\n`);
      if (map) await writeFile(`${target}.map`, map);
    }),
  );
  for (const asset of copies) {
    await mkdir(dirname(join(out, asset)), { recursive: true });
    await cp(join(ROOT, asset), join(out, asset), { recursive: true });
  }
  return { outDir: out, files: sources.length, assets: copies.length, ms: Date.now() - started };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  build(process.argv[2] ? resolve(process.argv[2]) : undefined).then(
    ({ outDir, files, assets, ms }) => console.log(`Built ${files} files (and ${assets} assets) into ${relative(process.cwd(), outDir) || '.'} in ${ms} ms.`),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
