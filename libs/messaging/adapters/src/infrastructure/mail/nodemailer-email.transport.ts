import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { createTransport, Transporter } from 'nodemailer';
import { AppConfig } from '@leadflow/shared-platform';
import { EmailDeliveryError, EmailTransport, OutgoingMessage, TransportReceipt } from '@leadflow/messaging-core';

/** Timeouts of the SMTP transport (nodemailer's defaults wait minutes): a dead server fails the attempt fast. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 60_000 };

interface NodemailerFailure extends Error {
  code?: string;
  responseCode?: number;
  response?: string;
  originalCode?: string;
}

/**
 * {@link EmailTransport} on nodemailer. With `SMTP_URL` (nodemailer URL form: `smtp://user:pass@host:587`,
 * `smtps://…`, query options such as `?pool=true`), messages go to that server. Without it, the
 * logging transport: nodemailer's JSON transport builds the message and it is written to the JSON logs
 * (operator-api › Runtime contract: "recorded and marked `sent` by a logging transport, never lost").
 * Nodemailer failures become {@link EmailDeliveryError} with the SMTP reply code when the server answered.
 */
@Injectable()
export class NodemailerEmailTransport extends EmailTransport implements OnApplicationShutdown {
  private readonly logger = new Logger('EmailTransport');
  private readonly transporter: Transporter;
  private readonly logging: boolean;

  constructor(config: AppConfig) {
    super();
    this.logging = config.smtpUrl === null;
    this.transporter = config.smtpUrl === null ? createTransport({ jsonTransport: true }) : createTransport({ ...SMTP_TIMEOUTS, url: config.smtpUrl });
  }

  async send(message: OutgoingMessage): Promise<TransportReceipt> {
    let info: { messageId?: string; message?: unknown };
    try {
      info = await this.transporter.sendMail({
        from: message.from.name ? { name: message.from.name, address: message.from.email } : message.from.email,
        to: message.to,
        replyTo: message.replyTo ?? undefined,
        subject: message.subject,
        html: message.html,
        messageId: message.messageId,
        headers: { 'X-Leadflow-Email-Id': message.emailId },
      });
    } catch (error) {
      throw toDeliveryError(error);
    }
    if (this.logging) {
      this.logger.log(
        { emailId: message.emailId, transport: 'logging', email: typeof info.message === 'string' ? JSON.parse(info.message) : info.message },
        'Email recorded by the logging transport (SMTP_URL is not set)',
      );
    }
    return { providerMessageId: info.messageId ?? null };
  }

  onApplicationShutdown(): void {
    this.transporter.close();
  }
}

function toDeliveryError(error: unknown): EmailDeliveryError {
  if (!(error instanceof Error)) return new EmailDeliveryError(String(error));
  const failure = error as NodemailerFailure;
  const responseCode = typeof failure.responseCode === 'number' ? failure.responseCode : null;
  // The server's reply ("451 4.7.1 Greylisted") reads better than nodemailer's wrapper message.
  const text = responseCode !== null && failure.response ? failure.response.replace(/^\d{3}[ -]/, '') : failure.message;
  const code = failure.code ?? failure.originalCode ?? null;
  return new EmailDeliveryError(text, responseCode, code);
}
