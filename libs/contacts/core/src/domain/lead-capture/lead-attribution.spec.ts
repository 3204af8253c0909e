import { leadAttribution } from './lead-attribution';

/** public-api-v1 › Lead capture input: utm, gclid, meta.ads_consent (first-touch attribution). */
describe('lead attribution', () => {
  it('keeps the utm members as sent', () => {
    expect(leadAttribution({ source: 'facebook', medium: 'paid_social', campaign: 'cuisine' }, null, true)).toEqual({
      source: 'facebook',
      medium: 'paid_social',
      campaign: 'cuisine',
    });
  });

  it('keeps the gclid beside a utm.source', () => {
    expect(leadAttribution({ source: 'google', medium: 'cpc' }, 'Cj0K', true)).toEqual({ source: 'google', medium: 'cpc', gclid: 'Cj0K' });
  });

  it('a gclid without utm.source is attributed to source google, medium cpc', () => {
    expect(leadAttribution({}, 'EAIa', true)).toEqual({ source: 'google', medium: 'cpc', gclid: 'EAIa' });
    expect(leadAttribution({ campaign: 'printemps' }, 'EAIa', true)).toEqual({ campaign: 'printemps', source: 'google', medium: 'cpc', gclid: 'EAIa' });
  });

  it('meta.ads_consent false never keeps the gclid: only the google / cpc origin remains', () => {
    expect(leadAttribution({}, 'Cj0K', false)).toEqual({ source: 'google', medium: 'cpc' });
    expect(leadAttribution({ source: 'newsletter' }, 'Cj0K', false)).toEqual({ source: 'newsletter' });
  });

  it('no utm and no gclid: no attribution', () => {
    expect(leadAttribution({}, null, true)).toBeNull();
    expect(leadAttribution({}, null, false)).toBeNull();
  });
});
