/**
 * Variables of an email sent with `POST /v1/emails/send`: `{{contact.first_name}}`,
 * `{{contact.last_name}}`, `{{contact.full_name}}`, `{{contact.email}}`, `{{contact.phone}}`,
 * `{{contact.company}}` (spaces inside the braces allowed). Any other `{{…}}` is left as written.
 */
export const EMAIL_VARIABLES = ['first_name', 'last_name', 'full_name', 'email', 'phone', 'company'] as const;
export type EmailVariable = (typeof EMAIL_VARIABLES)[number];
export type EmailVariableValues = Record<EmailVariable, string>;

/**
 * The sample values a test send fills in (public-api-v1 › Emails, test mode: "variables filled with
 * sample values"), whoever the recipient is.
 */
export const SAMPLE_VARIABLE_VALUES: EmailVariableValues = {
  first_name: 'Marie',
  last_name: 'Tremblay',
  full_name: 'Marie Tremblay',
  email: 'marie.tremblay@example.com',
  phone: '+15145550100',
  company: 'Exemple inc.',
};

/** The values of a real send: the recipient's contact when one holds the address, else the address alone. */
export function recipientVariableValues(
  to: string,
  contact: { first_name: string | null; last_name: string | null; email: string | null; phone: string | null; company: string | null } | null,
): EmailVariableValues {
  const firstName = contact?.first_name ?? '';
  const lastName = contact?.last_name ?? '';
  return {
    first_name: firstName,
    last_name: lastName,
    full_name: [firstName, lastName].filter((part) => part.length > 0).join(' '),
    email: contact?.email ?? to,
    phone: contact?.phone ?? '',
    company: contact?.company ?? '',
  };
}

const VARIABLE = /\{\{\s*contact\.([a-z_]+)\s*\}\}/g;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Replaces the known variables of `template` by their values. `html`: values are HTML-escaped (a
 * value never adds markup). Unknown variables stay as written. Pure.
 */
export function renderEmailVariables(template: string, values: EmailVariableValues, options: { html: boolean }): string {
  return template.replace(VARIABLE, (whole, name: string) => {
    if (!(EMAIL_VARIABLES as readonly string[]).includes(name)) return whole;
    const value = values[name as EmailVariable];
    return options.html ? value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]) : value;
  });
}
