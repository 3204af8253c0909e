import { escapeHtml } from '@leadflow/shared-kernel';
import type { QuoteView } from '@leadflow/quotes-contracts';
import { formatCad, PublicQuote } from '@leadflow/quotes-core';

type Language = 'fr' | 'en';

const TEXT = {
  fr: {
    quote: 'Soumission',
    number: 'Soumission n° ',
    for: 'Préparée pour',
    validUntil: 'Valide jusqu’au',
    description: 'Description',
    quantity: 'Quantité',
    unitPrice: 'Prix unitaire',
    amount: 'Montant',
    subtotal: 'Sous-total',
    tps: 'TPS (5 %)',
    tvq: 'TVQ (9,975 %)',
    total: 'Total',
    exempt: 'Exonération de taxes',
    paymentTerms: 'Modalités de paiement',
    notPriced: 'À déterminer',
    sign: 'Signer la soumission',
    decline: 'Refuser la soumission',
    signHint: 'En signant, vous acceptez cette soumission.',
    status: {
      signed: 'Cette soumission a été signée. Merci!',
      paid: 'Cette soumission a été signée et payée. Merci!',
      declined: 'Vous avez refusé cette soumission.',
      cancelled: 'Cette soumission a été annulée par l’entreprise.',
      expired: 'Cette soumission est expirée.',
    },
    signedTitle: 'Merci! Votre signature a été enregistrée.',
    signedBody: (business: string, number: string) => `${business} a bien reçu votre acceptation de la soumission ${number}. Vous serez contacté sous peu.`,
    declinedTitle: 'Votre refus a été enregistré.',
    declinedBody: (business: string, number: string) => `${business} est informé que vous refusez la soumission ${number}.`,
    back: 'Revoir la soumission',
    notFoundTitle: 'Soumission introuvable',
    notFoundBody: 'Ce lien n’est pas valide ou la soumission n’est plus disponible.',
  },
  en: {
    quote: 'Quote',
    number: 'Quote no. ',
    for: 'Prepared for',
    validUntil: 'Valid until',
    description: 'Description',
    quantity: 'Quantity',
    unitPrice: 'Unit price',
    amount: 'Amount',
    subtotal: 'Subtotal',
    tps: 'GST (5%)',
    tvq: 'QST (9.975%)',
    total: 'Total',
    exempt: 'Tax exemption',
    paymentTerms: 'Payment terms',
    notPriced: 'To be determined',
    sign: 'Sign the quote',
    decline: 'Decline the quote',
    signHint: 'By signing, you accept this quote.',
    status: {
      signed: 'This quote was signed. Thank you!',
      paid: 'This quote was signed and paid. Thank you!',
      declined: 'You declined this quote.',
      cancelled: 'This quote was cancelled by the business.',
      expired: 'This quote has expired.',
    },
    signedTitle: 'Thank you! Your signature was recorded.',
    signedBody: (business: string, number: string) => `${business} received your acceptance of quote ${number}. You will be contacted shortly.`,
    declinedTitle: 'Your decision was recorded.',
    declinedBody: (business: string, number: string) => `${business} is told that you decline quote ${number}.`,
    back: 'See the quote again',
    notFoundTitle: 'Quote not found',
    notFoundBody: 'This link is not valid or the quote is no longer available.',
  },
} as const;

const STYLE = `body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f4f5f7;color:#1f2933}
main{max-width:760px;margin:2rem auto;background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 3px rgba(0,0,0,.1)}
h1{font-size:1.5rem;margin:0 0 .25rem}table{width:100%;border-collapse:collapse;margin:1.5rem 0}
th,td{padding:.5rem;border-bottom:1px solid #e4e7eb;text-align:left;vertical-align:top}td.num,th.num{text-align:right;white-space:nowrap}
tfoot td{border:none}tfoot tr.total td{font-weight:700;font-size:1.1rem;border-top:2px solid #1f2933}
.status{padding:.75rem 1rem;border-radius:6px;background:#eef2ff;margin:1rem 0}.actions{display:flex;gap:1rem;flex-wrap:wrap;margin-top:1.5rem}
button{font-size:1rem;padding:.75rem 1.5rem;border-radius:6px;border:1px solid #1f2933;cursor:pointer}
button.sign{background:#1d4ed8;color:#fff;border-color:#1d4ed8}button.decline{background:#fff;color:#1f2933}
.muted{color:#616e7c}.pre{white-space:pre-line}`;

function page(language: Language, title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

function quantity(value: number, language: Language): string {
  return new Intl.NumberFormat(language === 'fr' ? 'fr-CA' : 'en-CA', { maximumFractionDigits: 4 }).format(value);
}

function money(value: number, language: Language): string {
  return escapeHtml(formatCad(value, language));
}

/** A unit price as given, up to 4 decimals (`2,375 $`). */
function unitPrice(value: number, language: Language): string {
  return escapeHtml(formatCad(value, language, 4));
}

function lineRows(quote: QuoteView, language: Language): string {
  const t = TEXT[language];
  return quote.line_items
    .map(
      (line) => `<tr class="line-item">
<td class="pre">${escapeHtml(line.description)}</td>
<td class="num">${escapeHtml(quantity(line.quantity, language))}</td>
<td class="num">${line.unit_price === null ? t.notPriced : unitPrice(line.unit_price, language)}</td>
<td class="num">${line.amount === null ? t.notPriced : money(line.amount, language)}</td>
</tr>`,
    )
    .join('\n');
}

/** The public quote page (`GET /q/{token}`), in the quote's language; every user text escaped. */
export function renderQuotePage({ quote, businessName, today }: PublicQuote, token: string): string {
  const language = quote.language;
  const t = TEXT[language];
  const business = escapeHtml(businessName);
  const prospect = [quote.prospect_name, quote.prospect_company].filter((part): part is string => Boolean(part)).map(escapeHtml).join('<br>');
  const address = quote.prospect_address ? `<div class="pre">${escapeHtml(quote.prospect_address)}</div>` : '';
  const expired = quote.status === 'expired' || (quote.valid_until !== null && quote.valid_until < today && (quote.status === 'sent' || quote.status === 'viewed'));
  const statusText = expired ? t.status.expired : quote.status in t.status ? t.status[quote.status as keyof typeof t.status] : null;
  const open = !expired && (quote.status === 'sent' || quote.status === 'viewed');
  const action = (name: 'sign' | 'decline') => `/q/${encodeURIComponent(token)}/${name}`;
  const exempt = quote.tax_exempt_reason
    ? `<p class="exempt"><strong>${t.exempt}</strong> : ${escapeHtml(quote.tax_exempt_reason)}</p>`
    : '';
  const body = `<header>
<p class="muted business">${business}</p>
<h1>${t.number}${escapeHtml(quote.quote_number)}</h1>
${quote.valid_until ? `<p class="muted">${t.validUntil} ${escapeHtml(quote.valid_until)}</p>` : ''}
</header>
${prospect || address ? `<section class="prospect"><p class="muted">${t.for}</p><div>${prospect}</div>${address}</section>` : ''}
${statusText ? `<p class="status" role="status">${statusText}</p>` : ''}
<table>
<thead><tr><th>${t.description}</th><th class="num">${t.quantity}</th><th class="num">${t.unitPrice}</th><th class="num">${t.amount}</th></tr></thead>
<tbody>
${lineRows(quote, language)}
</tbody>
<tfoot>
<tr class="subtotal"><td colspan="3" class="num">${t.subtotal}</td><td class="num">${money(quote.subtotal, language)}</td></tr>
<tr class="tps"><td colspan="3" class="num">${t.tps}</td><td class="num">${money(quote.tps_amount, language)}</td></tr>
<tr class="tvq"><td colspan="3" class="num">${t.tvq}</td><td class="num">${money(quote.tvq_amount, language)}</td></tr>
<tr class="total"><td colspan="3" class="num">${t.total}</td><td class="num">${money(quote.total, language)}</td></tr>
</tfoot>
</table>
${exempt}
${quote.payment_terms ? `<section><h2>${t.paymentTerms}</h2><p class="pre">${escapeHtml(quote.payment_terms)}</p></section>` : ''}
${
  open
    ? `<p class="muted">${t.signHint}</p>
<div class="actions">
<form method="post" action="${action('sign')}"><input type="hidden" name="confirm" value="sign"><button type="submit" class="sign">${t.sign}</button></form>
<form method="post" action="${action('decline')}"><input type="hidden" name="confirm" value="decline"><button type="submit" class="decline">${t.decline}</button></form>
</div>`
    : ''
}`;
  return page(language, `${t.quote} ${quote.quote_number} · ${businessName}`, body);
}

/** The page after Sign or Decline. */
export function renderConfirmationPage({ quote, businessName }: PublicQuote, action: 'sign' | 'decline', token: string): string {
  const t = TEXT[quote.language];
  const signed = action === 'sign';
  const body = `<h1 class="confirmation">${signed ? t.signedTitle : t.declinedTitle}</h1>
<p>${escapeHtml(signed ? t.signedBody(businessName, quote.quote_number) : t.declinedBody(businessName, quote.quote_number))}</p>
<p><a href="/q/${encodeURIComponent(token)}">${t.back}</a></p>`;
  return page(quote.language, signed ? t.signedTitle : t.declinedTitle, body);
}

/** 404: unknown token, archived quote (bilingual: the language is unknown). */
export function renderNotFoundPage(): string {
  const body = `<h1>${TEXT.fr.notFoundTitle} / ${TEXT.en.notFoundTitle}</h1>
<p>${TEXT.fr.notFoundBody}</p>
<p lang="en">${TEXT.en.notFoundBody}</p>`;
  return page('fr', `${TEXT.fr.notFoundTitle} / ${TEXT.en.notFoundTitle}`, body);
}

/** 400: a post that is not the page's own form (bilingual: the quote is not read). */
export function renderBadRequestPage(): string {
  const body = `<h1>Requête invalide / Invalid request</h1>
<p>Utilisez les boutons de la soumission.</p>
<p lang="en">Use the buttons of the quote.</p>`;
  return page('fr', 'Requête invalide / Invalid request', body);
}
