import { escapeHtml } from '@leadflow/shared-kernel';
import type { OutgoingEmailRequest } from '@leadflow/messaging-contracts';
import type { Calendar } from '../domain/calendar';
import { formatLocal } from '../domain/slots';
import type { BookingState } from './ports/bookings.repository.port';

/** Who booked, as the host's notification names them. */
export interface BookerSummary {
  name: string | null;
  email: string | null;
}

/**
 * The host's notification of a new or cancelled booking (type `booking_notification`, priority 1): the
 * calendar, the local date and time in the calendar's zone, who booked, the notes and answers.
 */
export function bookingNotification(kind: 'created' | 'cancelled', calendar: Calendar, booking: BookingState, hostEmail: string, booker: BookerSummary): OutgoingEmailRequest {
  const when = formatLocal(booking.start, calendar.timezone);
  const subject = kind === 'created' ? `Nouveau rendez-vous : ${calendar.name} — ${when}` : `Rendez-vous annulé : ${calendar.name} — ${when}`;
  const who = [booker.name, booker.email ? `<${booker.email}>` : null].filter(Boolean).join(' ') || 'un contact';
  const lines = [
    `<p>${kind === 'created' ? 'Nouveau rendez-vous' : 'Rendez-vous annulé'} avec ${escapeHtml(who)}.</p>`,
    `<p><strong>${escapeHtml(calendar.name)}</strong> — ${escapeHtml(when)}, ${calendar.durationMinutes} minutes.</p>`,
  ];
  if (booking.meetingLink) lines.push(`<p>Lien : ${escapeHtml(booking.meetingLink)}</p>`);
  if (kind === 'created' && booking.notes) lines.push(`<p>Notes : ${escapeHtml(booking.notes)}</p>`);
  if (kind === 'created') {
    const answers = calendar.questions
      .filter((question) => booking.formResponses[question.id] !== undefined)
      .map((question) => {
        const value = booking.formResponses[question.id].value;
        return `<li>${escapeHtml(question.label)} : ${escapeHtml(Array.isArray(value) ? value.join(', ') : String(value))}</li>`;
      });
    if (answers.length > 0) lines.push(`<ul>${answers.join('')}</ul>`);
  }
  return {
    to: hostEmail,
    subject,
    html: lines.join('\n'),
    type: 'booking_notification',
    priority: 1,
    contactId: booking.contactId,
    source: { kind: 'booking', id: booking.id },
  };
}
