import { escapeHtml } from '@leadflow/shared-kernel';
import type { QuoteView } from '@leadflow/quotes-contracts';
import { formatCad } from './html';

/** Subject and HTML body of the email that sends a quote, in the quote's language; every user text escaped. */
export function quoteEmail(quote: QuoteView, businessName: string, pageUrl: string): { subject: string; html: string } {
  const fr = quote.language === 'fr';
  const name = quote.prospect_name ? escapeHtml(quote.prospect_name) : null;
  const business = escapeHtml(businessName);
  const total = escapeHtml(formatCad(quote.total, quote.language));
  const link = escapeHtml(pageUrl);
  const subject = fr ? `Soumission ${quote.quote_number} de ${businessName}` : `Quote ${quote.quote_number} from ${businessName}`;
  const validity = quote.valid_until
    ? fr
      ? `<p>Cette soumission est valide jusqu’au ${escapeHtml(quote.valid_until)}.</p>`
      : `<p>This quote is valid until ${escapeHtml(quote.valid_until)}.</p>`
    : '';
  const html = fr
    ? `<p>Bonjour${name ? ` ${name}` : ''},</p>
<p>${business} vous a envoyé la soumission ${escapeHtml(quote.quote_number)} d’un total de ${total}.</p>
${validity}<p><a href="${link}">Consulter et signer la soumission</a></p>
<p>${link}</p>`
    : `<p>Hello${name ? ` ${name}` : ''},</p>
<p>${business} sent you quote ${escapeHtml(quote.quote_number)} for a total of ${total}.</p>
${validity}<p><a href="${link}">View and sign the quote</a></p>
<p>${link}</p>`;
  return { subject, html };
}
