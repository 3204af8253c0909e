import { SetMetadata } from '@nestjs/common';
import { IDEMPOTENT_ROUTE, IdempotentOptions } from './idempotency.interceptor';

/**
 * Per-route options of the Idempotency-Key rule. The rule itself needs no decorator: IdempotencyInterceptor,
 * put on every `POST` handler, applies it to every `POST /v1` route (honoured unless the route is in
 * IDEMPOTENCY_KEY_IGNORED) and every creating `POST /admin/v1` route. Only a route whose replay must differ from the stored body uses this:
 * `options.replay` reshapes the replayed body (lead capture's `status: idempotent_replay`).
 */
export const Idempotent = (options: IdempotentOptions = {}) => SetMetadata(IDEMPOTENT_ROUTE, options);
