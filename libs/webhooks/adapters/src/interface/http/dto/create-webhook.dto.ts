import { Allow } from 'class-validator';

/**
 * Body of `POST /v1/webhooks`. Only `url` and `events` are accepted (another member: 400
 * `validation_error` reason `unknown_field`); their rules are checked by the subscriptions service so
 * that each gets the spec's reason (`https_required`, `unknown_event_type`, `non_public_target`…).
 * `events` is `"*"`, `["*"]` or a non-empty array of catalog names.
 */
export class CreateWebhookDto {
  @Allow()
  url?: unknown;

  @Allow()
  events?: unknown;
}
