import type { QuoteView } from '@leadflow/quotes-contracts';

/** A quote as its public page shows it. */
export interface PublicQuote {
  quote: QuoteView;
  businessName: string;
  /** Today in the quote's zone (`YYYY-MM-DD`): the page tells a passed validity date. */
  today: string;
}
