import { AccountId, FieldViolation, isUuid, normalizeEmail } from '@leadflow/shared-kernel';
import type { OutgoingEmailRequest, OutgoingEmailStatus, OutgoingEmailType } from '@leadflow/messaging-contracts';
import { sanitizeEmailHtml } from './email-html';
import { InvalidOutgoingEmailError } from './messaging.errors';

/** A row of `messaging.outgoing_emails`. */
export interface OutgoingEmailState {
  id: string;
  accountId: AccountId;
  /** Lowercase. */
  to: string;
  fromEmail: string;
  fromName: string | null;
  replyTo: string | null;
  subject: string;
  /** Sanitised ({@link sanitizeEmailHtml}). */
  html: string;
  type: OutgoingEmailType;
  priority: number;
  isTest: boolean;
  contactId: string | null;
  source: { kind: string; id: string } | null;
  /** The email thread a non-test email joined (`messaging.email_threads`); null for a test email. */
  threadId?: string | null;
  status: OutgoingEmailStatus;
  /** SMTP hand-overs tried so far (each claim for sending counts one). */
  attempts: number;
  lastError: string | null;
  providerMessageId: string | null;
  createdAt: Date;
  sentAt: Date | null;
  updatedAt: Date;
}

/** Who an email comes from: the request's `from`, else the account's default sender. */
export interface EmailSender {
  email: string;
  name: string | null;
}

export const OUTGOING_EMAIL_TYPES: readonly OutgoingEmailType[] = [
  'transactional',
  'quote',
  'booking_notification',
  'automation',
  'registration_confirmation',
  'test',
];

/** Highest (1) to lowest priority accepted. */
export const PRIORITY_RANGE = { min: 1, max: 10 } as const;
/** RFC 5322 caps a header line at 998 characters. */
export const SUBJECT_MAX_LENGTH = 998;
const NAME_MAX_LENGTH = 200;
const TEST_PREFIX = '[TEST]';

/** The request checked and normalised; the sender is resolved afterwards (explicit `from` or the default sender). */
export interface CheckedEmailRequest {
  to: string;
  from: EmailSender | null;
  replyTo: string | null;
  subject: string;
  html: string;
  type: OutgoingEmailType;
  priority: number;
  isTest: boolean;
  contactId: string | null;
  source: { kind: string; id: string } | null;
}

/**
 * Checks a {@link OutgoingEmailRequest} (QueueEmailCommand) and normalises it: addresses lowercase,
 * line breaks of the subject folded into spaces (no header injection), `[TEST] ` prefixed once on a
 * test send, the HTML sanitised. Throws 400 `validation_error` listing every breach, with the API's
 * field names (`to`, `subject`, `html`, `type`, `priority`, `from.email`, `from.name`, `reply_to`,
 * `contact_id`, `source`).
 */
export function checkEmailRequest(request: OutgoingEmailRequest): CheckedEmailRequest {
  const violations: FieldViolation[] = [];
  const address = (field: string, value: unknown, required: boolean): string | null => {
    if (value === undefined || value === null || value === '') {
      if (required) violations.push({ field, reason: 'required', message: `${field} is required.` });
      return null;
    }
    const normalized = typeof value === 'string' ? normalizeEmail(value) : null;
    if (!normalized) violations.push({ field, reason: 'invalid_format', message: `${field} must be an email address.` });
    return normalized;
  };

  const to = address('to', request.to, true);

  let subject = typeof request.subject === 'string' ? request.subject.replace(/[\r\n]+/g, ' ').trim() : '';
  if (subject.length === 0) violations.push({ field: 'subject', reason: 'required', message: 'subject is required.' });
  if (request.isTest === true && !subject.startsWith(TEST_PREFIX)) subject = `${TEST_PREFIX} ${subject}`;
  if (subject.length > SUBJECT_MAX_LENGTH) {
    violations.push({ field: 'subject', reason: 'too_long', message: `At most ${SUBJECT_MAX_LENGTH} characters.` });
  }

  if (typeof request.html !== 'string') violations.push({ field: 'html', reason: 'required', message: 'html is required.' });

  if (!OUTGOING_EMAIL_TYPES.includes(request.type)) {
    violations.push({ field: 'type', reason: 'invalid_value', message: `type must be one of ${OUTGOING_EMAIL_TYPES.join(', ')}.` });
  }
  if (!Number.isInteger(request.priority) || request.priority < PRIORITY_RANGE.min || request.priority > PRIORITY_RANGE.max) {
    violations.push({ field: 'priority', reason: 'out_of_range', message: `priority must be an integer from ${PRIORITY_RANGE.min} to ${PRIORITY_RANGE.max}.` });
  }

  let from: EmailSender | null = null;
  if (request.from !== undefined && request.from !== null) {
    const email = address('from.email', request.from.email, true);
    const name = typeof request.from.name === 'string' && request.from.name.trim().length > 0 ? request.from.name.replace(/[\r\n]+/g, ' ').trim() : null;
    if (name !== null && name.length > NAME_MAX_LENGTH) {
      violations.push({ field: 'from.name', reason: 'too_long', message: `At most ${NAME_MAX_LENGTH} characters.` });
    }
    if (email) from = { email, name };
  }
  const replyTo = address('reply_to', request.replyTo, false);

  const contactId = request.contactId ?? null;
  if (contactId !== null && !isUuid(contactId)) violations.push({ field: 'contact_id', reason: 'invalid_format', message: 'contact_id must be a UUID.' });

  const source = request.source ?? null;
  if (source !== null && !(isShortText(source.kind, 50) && isShortText(source.id, 200))) {
    violations.push({ field: 'source', reason: 'invalid_value', message: 'source must be { kind, id } with non-empty strings.' });
  }

  if (violations.length > 0) throw new InvalidOutgoingEmailError(violations);
  return {
    to: to!,
    from,
    replyTo,
    subject,
    html: sanitizeEmailHtml(request.html),
    type: request.type,
    priority: request.priority,
    isTest: request.isTest === true,
    contactId: contactId === null ? null : contactId.toLowerCase(),
    source: source === null ? null : { kind: source.kind, id: source.id },
  };
}

/** The new row: `queued`, no attempt yet. */
export function queuedEmail(accountId: AccountId, id: string, request: CheckedEmailRequest, sender: EmailSender, now: Date): OutgoingEmailState {
  return {
    id,
    accountId,
    to: request.to,
    fromEmail: sender.email,
    fromName: sender.name,
    replyTo: request.replyTo,
    subject: request.subject,
    html: request.html,
    type: request.type,
    priority: request.priority,
    isTest: request.isTest,
    contactId: request.contactId,
    source: request.source,
    status: 'queued',
    attempts: 0,
    lastError: null,
    providerMessageId: null,
    createdAt: now,
    sentAt: null,
    updatedAt: now,
  };
}

/** What a transport is handed. */
export interface OutgoingMessage {
  emailId: string;
  /** The sending account (a sandbox's messages are never handed to the mail system: test mode). */
  accountId?: AccountId;
  from: EmailSender;
  to: string;
  replyTo: string | null;
  subject: string;
  html: string;
  /**
   * `<email id@sender domain>`: stable across retries, so a message handed over twice (a worker that
   * died between the server's acceptance and the commit) carries one Message-ID receivers can fold.
   */
  messageId: string;
}

export function outgoingMessage(email: OutgoingEmailState): OutgoingMessage {
  const domain = email.fromEmail.slice(email.fromEmail.lastIndexOf('@') + 1);
  return {
    emailId: email.id,
    accountId: email.accountId,
    from: { email: email.fromEmail, name: email.fromName },
    to: email.to,
    replyTo: email.replyTo,
    subject: email.subject,
    html: email.html,
    messageId: `<${email.id}@${domain}>`,
  };
}

function isShortText(value: unknown, max: number): boolean {
  return typeof value === 'string' && value.length > 0 && value.length <= max;
}
