/** Jest globalTeardown: drops the template database and stops containers started by globalSetup. */
export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __leadflowTeardown?: () => Promise<void> }).__leadflowTeardown?.();
}
