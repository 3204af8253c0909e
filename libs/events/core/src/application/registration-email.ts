import { escapeHtml } from '@leadflow/shared-kernel';
import type { EditionState } from '../domain/registration-rules';

/** Subject and HTML of the registration confirmation, French for `fr*`, English otherwise. Times in America/Montreal. */
export function confirmationEmail(
  language: string,
  data: { firstName: string | null; eventName: string; edition: EditionState },
): { subject: string; html: string } {
  const french = language.toLowerCase().startsWith('fr');
  const locale = french ? 'fr-CA' : 'en-CA';
  const format = (date: Date) =>
    new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'America/Montreal' }).format(date);
  const event = escapeHtml(data.eventName);
  const edition = escapeHtml(data.edition.name);
  const name = data.firstName ? ` ${escapeHtml(data.firstName)}` : '';
  const when = `${format(data.edition.startsAt)} – ${format(data.edition.endsAt)}`;
  return french
    ? {
        subject: `Inscription confirmée : ${data.eventName} (${data.edition.name})`,
        html: `<p>Bonjour${name},</p><p>Votre inscription à <strong>${event}</strong> (${edition}) est confirmée.</p><p>Quand : ${escapeHtml(when)}</p><p>Au plaisir de vous y voir!</p>`,
      }
    : {
        subject: `Registration confirmed: ${data.eventName} (${data.edition.name})`,
        html: `<p>Hello${name},</p><p>Your registration for <strong>${event}</strong> (${edition}) is confirmed.</p><p>When: ${escapeHtml(when)}</p><p>We look forward to seeing you there!</p>`,
      };
}
