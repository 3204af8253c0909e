import { PlatformInit1767000000000 } from './1767000000000-platform-init';

/** Migrations of the `platform` schema, in order. */
export const platformMigrations = [PlatformInit1767000000000];
