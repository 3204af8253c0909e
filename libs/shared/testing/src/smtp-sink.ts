import type { AddressInfo } from 'node:net';
import { SMTPServer, SMTPServerError } from 'smtp-server';

/** One message the sink accepted: the SMTP envelope, the raw message, its decoded headers and body. */
export interface ReceivedEmail {
  mailFrom: string;
  recipients: string[];
  raw: string;
  /** Header names lowercased; encoded words (`=?UTF-8?Q?…?=`) decoded. */
  headers: Record<string, string>;
  /** The single-part body, its transfer encoding (quoted-printable, base64) undone. */
  body: string;
}

interface Refusal {
  code: number;
  message: string;
  remaining: number;
}

/**
 * A real SMTP server on a random loopback port (the `smtp-server` package) for tests of the
 * outgoing-email path: no TLS, no authentication. It records every accepted message, and can be told
 * to refuse a recipient with a reply code (`451` transient, `550` permanent) a number of times.
 * `stop()` then `start()` again keeps the port (an SMTP server that goes away and comes back).
 */
export class SmtpSink {
  readonly received: ReceivedEmail[] = [];
  private readonly refusals = new Map<string, Refusal>();
  private readonly rcptCounts = new Map<string, number>();
  private server: SMTPServer | null = null;
  private boundPort = 0;

  /** Starts a sink on a random loopback port. */
  static async start(): Promise<SmtpSink> {
    const sink = new SmtpSink();
    await sink.start();
    return sink;
  }

  get port(): number {
    return this.boundPort;
  }

  /** `smtp://127.0.0.1:<port>`, an `SMTP_URL`. */
  get url(): string {
    return `smtp://127.0.0.1:${this.boundPort}`;
  }

  /** Listens again (on the same port once it had one). */
  async start(): Promise<void> {
    if (this.server) return;
    const server = new SMTPServer({
      disabledCommands: ['STARTTLS', 'AUTH'],
      authOptional: true,
      logger: false,
      onRcptTo: (address, _session, callback) => {
        const recipient = address.address.toLowerCase();
        this.rcptCounts.set(recipient, (this.rcptCounts.get(recipient) ?? 0) + 1);
        const refusal = this.refusals.get(recipient);
        if (refusal && refusal.remaining > 0) {
          refusal.remaining -= 1;
          const error: SMTPServerError = new Error(refusal.message);
          error.responseCode = refusal.code;
          return callback(error);
        }
        callback();
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const envelope = session.envelope;
          this.received.push({
            mailFrom: envelope.mailFrom ? envelope.mailFrom.address : '',
            recipients: envelope.rcptTo.map((recipient) => recipient.address),
            raw,
            ...parseMessage(raw),
          });
          callback();
        });
      },
    });
    server.on('error', () => undefined);
    await new Promise<void>((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(this.boundPort, '127.0.0.1', () => resolve());
    });
    this.boundPort = (server.server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Refuses the next `times` RCPT TO for `address` with `code` (Infinity: always). */
  refuse(address: string, code: number, message: string, times = Number.POSITIVE_INFINITY): void {
    this.refusals.set(address.toLowerCase(), { code, message, remaining: times });
  }

  /** How many times a client asked to deliver to `address` (accepted or refused). */
  attemptsFor(address: string): number {
    return this.rcptCounts.get(address.toLowerCase()) ?? 0;
  }

  /** Messages accepted with this header value (e.g. an email id header). */
  withHeader(name: string, value: string): ReceivedEmail[] {
    return this.received.filter((email) => email.headers[name.toLowerCase()] === value);
  }

  /** Stops listening (new connections are refused) and closes open ones. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

function parseMessage(raw: string): { headers: Record<string, string>; body: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = split === -1 ? raw : raw.slice(0, split);
  const content = split === -1 ? '' : raw.slice(split + 4);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = decodeWords(line.slice(colon + 1).trim());
  }
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  let body = content.replace(/\r\n$/, '');
  if (encoding === 'quoted-printable') body = decodeQuotedPrintable(body);
  else if (encoding === 'base64') body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return { headers, body };
}

function decodeQuotedPrintable(text: string): string {
  const source = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let index = 0; index < source.length; index += 1) {
    const hex = source[index] === '=' ? source.slice(index + 1, index + 3) : '';
    if (/^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      index += 2;
    } else {
      bytes.push(...Buffer.from(source[index], 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=(\s+(?==\?))?/g, (_, _charset: string, kind: string, text: string) =>
    kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );
}
