import { prepareTestServices } from '@leadflow/shared-testing';
import { ALL_MIGRATIONS } from '../../apps/api/src/database/all-migrations';

/** Jest globalSetup: services (testcontainers or local) and the migrated template database. */
export default async function globalSetup(): Promise<void> {
  (globalThis as { __leadflowTeardown?: () => Promise<void> }).__leadflowTeardown = await prepareTestServices(ALL_MIGRATIONS);
}
