import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { Redis } from 'ioredis';
import { Pool } from 'pg';
import { buildBaselineServer, prepareBaselineDatabase } from './baseline-server';

/**
 * Runs the baseline server inside the harness's process but on its own thread: autocannon keeps the
 * main event loop, so the baseline is not slowed down by the load generator sharing its loop (the api,
 * in its own process, never is). Protocol: the thread answers `{ type: 'ready', port }` once listening
 * on 127.0.0.1 (free port), `{ type: 'failed', message }` if it could not start, and `{ type: 'stopped' }`
 * after `'stop'` (server closed, pool ended).
 */
export interface BaselineWorkerData {
  databaseUrl: string;
  poolSize: number;
  redisUrl: string;
}

type WorkerMessage = { type: 'ready'; port: number } | { type: 'failed'; message: string } | { type: 'stopped' };

export interface RunningBaseline {
  /** `http://127.0.0.1:<port>` */
  baseUrl: string;
  stop(): Promise<void>;
}

/** Starts the thread (this same file, through @swc-node/register) and resolves once the server listens. */
export function startBaselineThread(data: BaselineWorkerData): Promise<RunningBaseline> {
  const worker = new Worker(`require('@swc-node/register'); require(${JSON.stringify(__filename)});`, {
    eval: true,
    // Registered explicitly above: an inherited `-r @swc-node/register` would hook the loader twice.
    execArgv: [],
    workerData: data,
  });
  return new Promise<RunningBaseline>((resolve, reject) => {
    const onExit = (code: number) => reject(new Error(`baseline thread exited (code ${code}) before listening`));
    worker.once('error', reject);
    worker.once('exit', onExit);
    worker.once('message', (message: WorkerMessage) => {
      worker.off('exit', onExit);
      if (message.type !== 'ready') {
        reject(new Error(message.type === 'failed' ? message.message : 'baseline thread stopped before listening'));
        return;
      }
      resolve({
        baseUrl: `http://127.0.0.1:${message.port}`,
        stop: () =>
          new Promise<void>((done) => {
            worker.once('exit', () => done());
            worker.postMessage('stop');
          }),
      });
    });
  });
}

async function serve(port: NonNullable<typeof parentPort>, data: BaselineWorkerData): Promise<void> {
  await prepareBaselineDatabase(data.databaseUrl);
  const pool = new Pool({ connectionString: data.databaseUrl, max: data.poolSize });
  const redis = new Redis(data.redisUrl);
  const app = buildBaselineServer(pool, redis);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('baseline server has no TCP address');
  port.on('message', (message: unknown) => {
    if (message !== 'stop') return;
    void (async () => {
      await app.close();
      await pool.end();
      await redis.quit();
      port.postMessage({ type: 'stopped' } satisfies WorkerMessage);
      port.close();
    })();
  });
  port.postMessage({ type: 'ready', port: address.port } satisfies WorkerMessage);
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  serve(port, workerData as BaselineWorkerData).catch((error: unknown) => {
    port.postMessage({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies WorkerMessage);
    port.close();
  });
}
