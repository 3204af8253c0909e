import { HttpException, Logger, NotFoundException, PayloadTooLargeException, ServiceUnavailableException } from '@nestjs/common';
import { DomainError } from '@leadflow/shared-kernel';
import { isKnownErrorCode, statusOfCode, typeOfStatus } from './error-catalog';
import { renderDomainError } from './error-envelope';
import { toDomainError } from './error-envelope.filter';
import { BODY_LIMIT_BYTES } from './http-contract.constants';

/** public-api-v1 › Errors (the status table), operator-api › Error envelope and 401. */
const SPEC_TABLE: Record<number, string[]> = {
  400: ['invalid_request', 'validation_error', 'no_fields', 'invalid_custom_fields', 'no_sender_configured', 'recipient_not_allowed'],
  401: ['invalid_signature', 'invalid_api_key'],
  403: ['insufficient_scope', 'feature_not_available', 'terms_acceptance_required'],
  404: ['not_found', 'resource_not_found', 'contact_not_found'],
  409: [
    'duplicate_contact', 'duplicate_resource', 'idempotency_conflict', 'tag_managed_by_service', 'lead_disqualified', 'status_locked',
    'payment_plan_locked', 'signature_payment_order_locked', 'already_signed', 'quote_cancelled', 'already_sent', 'quote_status_changed',
    'send_in_progress', 'send_outcome_unknown', 'recipient_unsubscribed', 'sender_unavailable', 'automation_inactive',
    'automation_not_published', 'no_trigger', 'already_enrolled',
  ],
  415: ['unsupported_media_type'],
  422: [
    'business_rule_violation', 'system_not_found', 'no_prospect_email', 'invalid_prospect_email', 'unpriced_lines', 'untaxed_quote',
    'deposit_not_payable', 'invalid_phone', 'missing_consent', 'invalid_email', 'invalid_payload', 'pipeline_not_found', 'stage_not_found',
  ],
  429: ['rate_limit_exceeded', 'rate_limited_ip', 'trigger_throttled', 'subscription_limit_reached', 'test_quota_exceeded'],
  503: ['service_unavailable'],
};

const ENVELOPE_TYPES = [
  'invalid_request_error', 'authentication_error', 'permission_error', 'not_found_error', 'conflict_error',
  'unprocessable_error', 'rate_limit_error', 'api_error', 'service_unavailable_error',
];

describe('error catalog', () => {
  const rows = Object.entries(SPEC_TABLE).flatMap(([status, codes]) => codes.map((code) => [code, Number(status)] as const));

  it.each(rows)('%s answers %i', (code, status) => {
    expect(isKnownErrorCode(code)).toBe(true);
    expect(statusOfCode(code)).toBe(status);
  });

  it.each([
    [400, 'invalid_request_error'],
    [401, 'authentication_error'],
    [403, 'permission_error'],
    [404, 'not_found_error'],
    [409, 'conflict_error'],
    [413, 'invalid_request_error'],
    [415, 'invalid_request_error'],
    [422, 'unprocessable_error'],
    [429, 'rate_limit_error'],
    [500, 'api_error'],
    [503, 'service_unavailable_error'],
    [418, 'invalid_request_error'],
    [502, 'api_error'],
  ])('status %i has envelope type %s', (status, type) => {
    expect(typeOfStatus(status)).toBe(type);
  });

  it('every catalogued code has a status whose type is one of the nine envelope types', () => {
    for (const code of rows.map(([code]) => code).concat(['payload_too_large', 'method_not_allowed', 'internal_error', 'invalid_admin_token'])) {
      expect(ENVELOPE_TYPES).toContain(typeOfStatus(statusOfCode(code)));
    }
  });

  it('an unknown code is a programming error: 500', () => {
    expect(isKnownErrorCode('nope')).toBe(false);
    expect(statusOfCode('nope')).toBe(500);
  });
});

describe('renderDomainError', () => {
  it('renders the flat envelope with doc_url on the public base URL', () => {
    const rendered = renderDomainError(new DomainError('insufficient_scope', 'Missing scope.', { required_scope: 'contacts:write' }), 'req-1', 'https://api.example');
    expect(rendered).toEqual({
      status: 403,
      headers: {},
      body: {
        code: 'insufficient_scope',
        message: 'Missing scope.',
        details: { required_scope: 'contacts:write' },
        type: 'permission_error',
        doc_url: 'https://api.example/docs/errors#insufficient_scope',
        request_id: 'req-1',
      },
    });
  });

  it('honours status override, extra members, headers and the simplified body', () => {
    const error = new DomainError('already_cancelled', 'x', { reason: 'already_cancelled' }, { status: 422, extra: { data: { id: 'b' } }, headers: { 'Retry-After': '3' } });
    expect(renderDomainError(error, 'r', 'https://h')).toMatchObject({ status: 422, headers: { 'Retry-After': '3' }, body: { type: 'unprocessable_error', data: { id: 'b' } } });
    const simplified = renderDomainError(new DomainError('rate_limited_ip', 'x', null, { simplified: true }), 'r', 'https://h');
    expect(simplified.body).toEqual({ code: 'rate_limited_ip', message: 'x', details: null, request_id: 'r' });
  });
});

describe('toDomainError', () => {
  const logger = { error: jest.fn() } as unknown as Logger;
  const fastifyError = (code: string, statusCode: number) => Object.assign(new Error(code), { code, statusCode });

  it('keeps DomainErrors', () => {
    const error = new DomainError('not_found', 'x');
    expect(toDomainError(error, logger)).toBe(error);
  });

  it.each([
    ['FST_ERR_CTP_BODY_TOO_LARGE', 413, 'payload_too_large', { max_bytes: BODY_LIMIT_BYTES }],
    ['FST_ERR_CTP_INVALID_MEDIA_TYPE', 415, 'unsupported_media_type', null],
    ['FST_ERR_CTP_INVALID_CONTENT_LENGTH', 400, 'invalid_request', { field: 'Content-Length', reason: 'invalid_value' }],
    ['FST_ERR_CTP_INVALID_JSON_BODY', 400, 'invalid_request', { field: '', reason: 'invalid_json' }],
    ['FST_ERR_CTP_EMPTY_JSON_BODY', 400, 'invalid_request', { field: '', reason: 'invalid_json' }],
    ['FST_ERR_BAD_URL', 400, 'invalid_request', { field: 'url', reason: 'invalid_format' }],
  ])('maps Fastify %s, raw or wrapped by Nest in an HttpException cause', (code, status, expected, details) => {
    const raw = fastifyError(code, status);
    const wrapped = new HttpException(raw.message, status, { cause: raw });
    for (const error of [raw, wrapped]) {
      const mapped = toDomainError(error, logger);
      expect({ code: mapped.code, details: mapped.details }).toEqual({ code: expected, details });
    }
  });

  it('maps Nest HttpExceptions by status', () => {
    expect(toDomainError(new NotFoundException(), logger).code).toBe('not_found');
    expect(toDomainError(new PayloadTooLargeException(), logger).code).toBe('payload_too_large');
    expect(toDomainError(new ServiceUnavailableException(), logger).code).toBe('service_unavailable');
    const forbidden = toDomainError(new HttpException('nope', 403), logger);
    expect({ code: forbidden.code, status: forbidden.options.status }).toEqual({ code: 'invalid_request', status: 403 });
  });

  it('maps an unreachable PostgreSQL or Redis to 503 with Retry-After', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const adminShutdown = Object.assign(new Error('query failed'), { driverError: { code: '57P01' } });
    for (const error of [refused, adminShutdown, new Error('Connection terminated unexpectedly')]) {
      const mapped = toDomainError(error, logger);
      expect({ code: mapped.code, retry: mapped.options.headers?.['Retry-After'] }).toEqual({ code: 'service_unavailable', retry: '5' });
    }
  });

  it('hides anything else as 500 internal_error and logs it', () => {
    const mapped = toDomainError(new TypeError('secret'), logger);
    expect(mapped.code).toBe('internal_error');
    expect(mapped.message).not.toContain('secret');
    expect(logger.error).toHaveBeenCalled();
  });
});
