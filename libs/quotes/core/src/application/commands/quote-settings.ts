import type { QuoteAccountSettings } from '../ports/quote-collaborators.port';

/** Settings of an account without `quote_defaults` (the accounts context's own defaults). */
export const DEFAULT_QUOTE_SETTINGS: QuoteAccountSettings = {
  name: '',
  timezone: 'America/Montreal',
  defaults: { validityDays: 30, paymentTerms: null, signaturePaymentOrder: 'signature_first', taxProfile: 'gst_qst' },
};
