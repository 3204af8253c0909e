/** Public API of the operator context. */
export * from './operator-actor';
