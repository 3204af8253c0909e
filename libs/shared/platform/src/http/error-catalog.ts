/**
 * Stable error codes of the public and operator APIs mapped to their HTTP status
 * (public-api-v1 › Errors, operator-api › Error envelope). The envelope `type` follows the status.
 */
const STATUS_BY_CODE: Record<string, number> = {
  invalid_request: 400,
  validation_error: 400,
  no_fields: 400,
  invalid_custom_fields: 400,
  no_sender_configured: 400,
  recipient_not_allowed: 400,
  invalid_api_key: 401,
  invalid_signature: 401,
  invalid_admin_token: 401,
  insufficient_scope: 403,
  feature_not_available: 403,
  terms_acceptance_required: 403,
  not_found: 404,
  resource_not_found: 404,
  contact_not_found: 404,
  method_not_allowed: 405,
  duplicate_contact: 409,
  duplicate_resource: 409,
  idempotency_conflict: 409,
  tag_managed_by_service: 409,
  lead_disqualified: 409,
  status_locked: 409,
  payment_plan_locked: 409,
  signature_payment_order_locked: 409,
  already_signed: 409,
  quote_cancelled: 409,
  already_sent: 409,
  quote_status_changed: 409,
  send_in_progress: 409,
  send_outcome_unknown: 409,
  recipient_unsubscribed: 409,
  sender_unavailable: 409,
  automation_inactive: 409,
  automation_not_published: 409,
  no_trigger: 409,
  already_enrolled: 409,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  request_header_fields_too_large: 431,
  business_rule_violation: 422,
  system_not_found: 422,
  no_prospect_email: 422,
  invalid_prospect_email: 422,
  unpriced_lines: 422,
  untaxed_quote: 422,
  deposit_not_payable: 422,
  invalid_phone: 422,
  missing_consent: 422,
  invalid_email: 422,
  invalid_payload: 422,
  pipeline_not_found: 422,
  stage_not_found: 422,
  rate_limit_exceeded: 429,
  rate_limited_ip: 429,
  trigger_throttled: 429,
  subscription_limit_reached: 429,
  test_quota_exceeded: 429,
  sandbox_exists: 409,
  live_account_required: 422,
  sandbox_required: 422,
  internal_error: 500,
  service_unavailable: 503,
};

const TYPE_BY_STATUS: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  405: 'invalid_request_error',
  409: 'conflict_error',
  413: 'invalid_request_error',
  415: 'invalid_request_error',
  422: 'unprocessable_error',
  429: 'rate_limit_error',
  500: 'api_error',
  503: 'service_unavailable_error',
};

/** HTTP status of a code; an unknown code is a programming error and reads 500. */
export function statusOfCode(code: string): number {
  return STATUS_BY_CODE[code] ?? 500;
}

/** Envelope `type` of a status (`api_error` for any other 5xx, `invalid_request_error` for any other 4xx). */
export function typeOfStatus(status: number): string {
  return TYPE_BY_STATUS[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

export function isKnownErrorCode(code: string): boolean {
  return code in STATUS_BY_CODE;
}

/**
 * Codes of DomainErrors raised in the worker only, never answered over HTTP (so not in the public error
 * documentation): an automation step that cannot run (`executions.error`, `details.reason`) and an
 * integration event a consumer cannot read (`platform.event_inbox` outcome `rejected:invalid_event`).
 * Catalogued so that every code raised anywhere is written down (tools/lint/error-codes.spec.ts).
 */
const WORKER_ONLY_CODES = ['step_failed', 'invalid_event'] as const;

/** True for a code of the HTTP catalogue or one of the worker-only codes. */
export function isCataloguedErrorCode(code: string): boolean {
  return isKnownErrorCode(code) || (WORKER_ONLY_CODES as readonly string[]).includes(code);
}

/** Every code of the catalogue (the codes the service can emit), in catalogue order. */
export function knownErrorCodes(): string[] {
  return Object.keys(STATUS_BY_CODE);
}
