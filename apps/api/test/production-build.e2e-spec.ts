import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { createServer } from 'node:net';
import { join, relative } from 'node:path';
import { Client } from 'pg';
import { createTestServices, TestServices } from '@leadflow/shared-testing';
import { ALL_MIGRATIONS } from '../src/database/all-migrations';

/**
 * Issue 17, item 5: `npm run build` (tools/scripts/build.mjs) compiles the api, the worker and the
 * migration runner to JavaScript, and what it writes runs by itself: the compiled migration runner finds
 * every migration and migrates an empty database, the compiled api starts on it (NODE_ENV=production, as
 * in the image) against the real PostgreSQL and Redis and answers `/health` 200, and the output needs no
 * TypeScript and no package outside `dependencies` (the image installs those only: `npm ci --omit=dev`).
 * The build goes to a temporary directory inside the repository (`tmp/`), where Node finds node_modules.
 */
const ROOT = join(__dirname, '..', '..', '..');
const OUT = join(ROOT, 'tmp', `build-test-${randomBytes(4).toString('hex')}`);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], env: NodeJS.ProcessEnv = process.env, timeoutMs = 50_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)]));
}

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
const packageOf = (specifier: string): string => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

describe('npm run build: the compiled api runs on its own (issue 17, item 5)', () => {
  let services: TestServices;
  let emptyDatabaseUrl: string;
  let api: ChildProcess | undefined;
  let apiOutput = '';
  let build: Run;

  beforeAll(async () => {
    services = await createTestServices();
    const url = new URL(services.databaseUrl);
    url.pathname = `${url.pathname}_build`;
    emptyDatabaseUrl = url.toString();
    build = await run(['tools/scripts/build.mjs', OUT]);
  }, 60_000);

  afterAll(async () => {
    if (api && api.exitCode === null) {
      const exited = new Promise((resolve) => api!.once('exit', resolve));
      api.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 10_000)))]);
      clearTimeout(timer);
      if (api.exitCode === null) api.kill('SIGKILL');
    }
    rmSync(OUT, { recursive: true, force: true });
    const admin = new URL(services.databaseUrl);
    admin.pathname = '/postgres';
    const client = new Client({ connectionString: admin.toString() });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${new URL(emptyDatabaseUrl).pathname.slice(1)}" WITH (FORCE)`).finally(() => client.end());
    await services.dispose();
  }, 30_000);

  it('writes JavaScript only, with the served assets, and requires no package outside dependencies', () => {
    expect(build).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Built \d+ files/) });
    const written = files(OUT).map((file) => relative(OUT, file));
    for (const entry of ['apps/api/src/main.js', 'apps/worker/src/main.js', 'tools/scripts/migrate.js', 'apps/api/openapi/openapi.en.yaml', 'CHANGELOG.md']) {
      expect(written).toContain(entry);
    }
    expect(written.filter((file) => file.endsWith('.ts'))).toEqual([]);

    const dependencies = new Set(Object.keys(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).dependencies));
    const required = new Set<string>();
    for (const file of written.filter((name) => name.endsWith('.js') && !name.startsWith('node_modules/'))) {
      for (const match of readFileSync(join(OUT, file), 'utf8').matchAll(/require\("([^"]+)"\)/g)) {
        const specifier = match[1];
        if (specifier.startsWith('.') || specifier.startsWith('node:') || builtinModules.includes(specifier)) continue;
        required.add(packageOf(specifier));
      }
    }
    expect([...required].filter((name) => !dependencies.has(name))).toEqual([]);
    // @leadflow/* imports are rewritten to relative paths: the image has no workspace links.
    expect([...required].filter((name) => name.startsWith('@leadflow/'))).toEqual([]);
    // Redoc (a devDependency) is served from the one bundle file the build vendors.
    expect(existsSync(join(OUT, 'node_modules/redoc/bundles/redoc.standalone.js'))).toBe(true);
  });

  it('the compiled migration runner finds every migration and migrates an empty database', async () => {
    const migrated = await run([join(OUT, 'tools/scripts/migrate.js')], { ...process.env, DATABASE_URL: emptyDatabaseUrl });
    expect(migrated.code).toBe(0);
    const names = /^Migrations run: (.*)$/m.exec(migrated.stdout)?.[1].split(', ') ?? [];
    // TypeORM runs them in timestamp order; every one of ALL_MIGRATIONS, once.
    expect([...names].sort()).toEqual(ALL_MIGRATIONS.map((migration) => migration.name).sort());
  }, 60_000);

  it('the compiled api starts with NODE_ENV=production on PostgreSQL and Redis and answers GET /health 200', async () => {
    const port = await freePort();
    api = spawn(process.execPath, ['--enable-source-maps', join(OUT, 'apps/api/src/main.js')], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        SECRET_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
        DATABASE_URL: emptyDatabaseUrl,
        REDIS_URL: services.redisUrl,
        REDIS_PREFIX: services.redisPrefix,
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    api.stdout!.on('data', (data: Buffer) => (apiOutput += data.toString()));
    api.stderr!.on('data', (data: Buffer) => (apiOutput += data.toString()));

    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 40_000;
    let health: { status: number; body: unknown } | undefined;
    while (Date.now() < deadline && api.exitCode === null) {
      try {
        const response = await fetch(`${base}/health`);
        health = { status: response.status, body: await response.json() };
        if (response.status === 200) break;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect({ health, exitCode: api.exitCode, output: apiOutput.slice(-2000) }).toMatchObject({ health: { status: 200 }, exitCode: null });
    expect((await fetch(`${base}/health/live`)).status).toBe(200);
    const redoc = await fetch(`${base}/docs/redoc.standalone.js`);
    expect(redoc.status).toBe(200);
    expect((await redoc.text()).length).toBeGreaterThan(100_000);
    // Nothing at warn or above while booting and answering.
    expect(apiOutput).toBe('');
  }, 60_000);
});
