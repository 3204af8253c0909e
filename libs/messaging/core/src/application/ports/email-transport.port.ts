import type { OutgoingMessage } from '../../domain/outgoing-email';

export interface TransportReceipt {
  /** The Message-ID or queue id the transport reports, if any. */
  providerMessageId: string | null;
}

/**
 * Hands a message over to the mail system (SMTP_URL, or the logging transport when it is unset).
 * Failures throw `EmailDeliveryError` with the SMTP reply code when the server answered.
 */
export abstract class EmailTransport {
  abstract send(message: OutgoingMessage): Promise<TransportReceipt>;
}
