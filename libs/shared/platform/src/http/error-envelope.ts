import { DomainError, DomainErrorDetails } from '@leadflow/shared-kernel';
import { statusOfCode, typeOfStatus } from './error-catalog';

/** The flat error envelope (operator-api › Error envelope). */
export interface ErrorEnvelope {
  code: string;
  message: string;
  details: DomainErrorDetails;
  type?: string;
  doc_url?: string;
  request_id: string;
  [extra: string]: unknown;
}

export interface RenderedError {
  status: number;
  body: ErrorEnvelope;
  headers: Record<string, string>;
}

/** Renders a DomainError as status, envelope and headers. Simplified bodies drop `type` and `doc_url`. */
export function renderDomainError(error: DomainError, requestId: string, publicBaseUrl: string): RenderedError {
  const status = error.options.status ?? statusOfCode(error.code);
  const body: ErrorEnvelope = error.options.simplified
    ? { code: error.code, message: error.message, details: error.details, request_id: requestId }
    : {
        code: error.code,
        message: error.message,
        details: error.details,
        type: typeOfStatus(status),
        doc_url: `${publicBaseUrl}/docs/errors#${error.code}`,
        request_id: requestId,
      };
  return { status, body: { ...body, ...(error.options.extra ?? {}) }, headers: error.options.headers ?? {} };
}
