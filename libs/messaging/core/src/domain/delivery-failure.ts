/**
 * Why a transport could not hand an email over: the SMTP reply code when the server answered, else
 * the transport's error code (`ECONNECTION`, `ETIMEDOUT`, `ESOCKET`, `EDNS`, `EAUTH`…, with the
 * socket's own code such as `ECONNREFUSED` in `cause`).
 */
export class EmailDeliveryError extends Error {
  constructor(
    message: string,
    readonly responseCode: number | null = null,
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = 'EmailDeliveryError';
  }
}

/**
 * Errors that no retry of the same message can fix although the server never answered: the message
 * or its envelope was refused before it left (an address the transport cannot use).
 */
const PERMANENT_WITHOUT_REPLY = new Set(['EENVELOPE', 'EMESSAGE', 'EMAXRECIPIENTS']);

/**
 * RFC 5321: a 5yz reply is a permanent refusal (except 503, a bad command sequence: the same message
 * may go through on a new connection) and a 4yz reply a transient one. Without a reply, a refused
 * envelope or message is permanent; anything else (connection refused or dropped, timeouts, DNS,
 * TLS, authentication or configuration the operator can fix) is transient and retried.
 */
export function isPermanentDeliveryFailure(error: unknown): boolean {
  if (!(error instanceof EmailDeliveryError)) return false;
  if (error.responseCode !== null) return error.responseCode >= 500 && error.responseCode < 600 && error.responseCode !== 503;
  return error.code !== null && PERMANENT_WITHOUT_REPLY.has(error.code);
}

/** `last_error` as stored: the reply code first when there is one, at most 1000 characters. */
export function describeDeliveryFailure(error: unknown): string {
  const text =
    error instanceof EmailDeliveryError
      ? [error.responseCode ?? error.code, error.message].filter((part) => part !== null && part !== '').join(' ')
      : error instanceof Error
        ? error.message
        : String(error);
  return text.length > 1000 ? `${text.slice(0, 997)}...` : text;
}
