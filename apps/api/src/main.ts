import 'reflect-metadata';
import { AppConfig } from '@leadflow/shared-platform';
import { createApiApp } from './bootstrap';

/** api app entry point: listens on HOST:PORT; SIGINT/SIGTERM close it gracefully (in-flight requests finish). */
async function main(): Promise<void> {
  const config = new AppConfig();
  const app = await createApiApp(config);
  await app.listen({ port: config.port, host: config.host });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
