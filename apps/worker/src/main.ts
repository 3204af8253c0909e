import 'reflect-metadata';
import { AppConfig } from '@leadflow/shared-platform';
import { createWorker } from './bootstrap';

/** worker app entry point: runs until SIGINT/SIGTERM, then lets active jobs finish and closes. */
createWorker(new AppConfig()).catch((error) => {
  console.error(error);
  process.exit(1);
});
