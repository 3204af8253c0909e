/**
 * First-touch ad attribution of a capture (public-api-v1 › Lead capture input: `utm`, `gclid`,
 * `meta.ads_consent`), as stored in the contact's `attribution` (kept once set).
 *
 * - `utm.source` present: the utm members as sent, plus the gclid when there is one.
 * - a gclid without `utm.source`: source `google`, medium `cpc` (other utm members kept), and the gclid.
 * - `meta.ads_consent` false: the gclid is never kept; only the google / cpc origin remains.
 * - neither utm nor gclid: no attribution (null).
 */
export interface LeadAttribution {
  source?: string;
  medium?: string;
  campaign?: string;
  term?: string;
  content?: string;
  gclid?: string;
  [member: string]: unknown;
}

export function leadAttribution(utm: Readonly<Record<string, string>>, gclid: string | null, adsConsent: boolean): LeadAttribution | null {
  const attribution: LeadAttribution = { ...utm };
  if (gclid !== null && attribution.source === undefined) {
    attribution.source = 'google';
    attribution.medium = 'cpc';
  }
  if (gclid !== null && adsConsent) attribution.gclid = gclid;
  return Object.keys(attribution).length > 0 ? attribution : null;
}
