import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { IDEMPOTENT_ROUTE, IdempotencyInterceptor, IdempotentOptions } from './idempotency.interceptor';

/**
 * Marks a mutating route as honouring `Idempotency-Key` (public-api-v1 › Limits: pattern
 * `[a-zA-Z0-9_-]{1,64}`, stored 24 hours). Same key and payload replays the stored 2xx response;
 * another payload, or the first request still processing, gives 409 `idempotency_conflict`;
 * rejected requests are not stored. `options.replay` may reshape the replayed body.
 */
export const Idempotent = (options: IdempotentOptions = {}) =>
  applyDecorators(SetMetadata(IDEMPOTENT_ROUTE, options), UseInterceptors(IdempotencyInterceptor));
