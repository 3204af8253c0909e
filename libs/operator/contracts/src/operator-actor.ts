import type { Actor } from '@leadflow/shared-kernel';

/** Who acts when the operator API changes something: activity-log entries and outbox events name it. */
export const OPERATOR_ACTOR: Actor = Object.freeze({ type: 'operator', id: null, name: 'operator', via: null });
