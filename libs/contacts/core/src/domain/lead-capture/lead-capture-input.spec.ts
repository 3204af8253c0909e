import { DomainError } from '@leadflow/shared-kernel';
import { LeadCaptureRejectedError } from '../contacts.errors';
import { cleanText, parseLeadCapture } from './lead-capture-input';

const VALID = { phone: '(514) 555-0123', sms_consent: true };

function rejection(body: unknown): LeadCaptureRejectedError {
  try {
    parseLeadCapture(body);
  } catch (error) {
    if (error instanceof LeadCaptureRejectedError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

const ignoredOf = (body: Record<string, unknown>) => parseLeadCapture({ ...VALID, ...body }).ignored.toResponse().ignored_fields;

/** public-api-v1 › Lead capture input and Endpoints › Leads rules 4 and 9: reading a capture body. */
describe('parseLeadCapture', () => {
  describe('422 in the simplified body', () => {
    it.each([[[]], [[VALID]], ['{"phone":"5145550123"}'], [42], [true], [null], [undefined]])(
      'invalid_payload when the body is not a JSON object (%p), field ""',
      (body) => {
        const error = rejection(body);
        expect(error.code).toBe('invalid_payload');
        expect(error.details).toEqual([{ field: '', reason: 'invalid_payload' }]);
        expect(error.options.simplified).toBe(true);
      },
    );

    it('invalid_phone with field phone when the phone is missing (reason required)', () => {
      const error = rejection({ sms_consent: true, email: 'a@b.co' });
      expect(error.code).toBe('invalid_phone');
      expect(error.details).toEqual([{ field: 'phone', reason: 'required' }]);
    });

    it('invalid_phone echoing the value in the message', () => {
      const error = rejection({ ...VALID, phone: 'abc' });
      expect(error).toMatchObject({ code: 'invalid_phone', details: [{ field: 'phone', reason: 'invalid_phone' }] });
      expect(error.message).toContain('"abc"');
    });

    it('the echoed value is capped at 120 characters', () => {
      const value = `${'abcdefghij'.repeat(30)}`;
      const error = rejection({ ...VALID, email: value });
      expect(error.code).toBe('invalid_email');
      expect(error.message).toContain(value.slice(0, 120));
      expect(error.message).not.toContain(value.slice(0, 121));
    });

    it.each(['marc.tremblay@videotron', 'not an email', 12, true, { at: 'x' }])('invalid_email for %p, field email', (email) => {
      const error = rejection({ ...VALID, email });
      expect(error.code).toBe('invalid_email');
      expect(error.details).toEqual([{ field: 'email', reason: 'invalid_email' }]);
    });

    it.each([false, 'no', 0, 1, 'maybe', 'non', '', null])('missing_consent for sms_consent %p, field sms_consent', (sms_consent) => {
      const error = rejection({ phone: '5145550123', sms_consent });
      expect(error.code).toBe('missing_consent');
      expect(error.details).toEqual([{ field: 'sms_consent', reason: sms_consent === null ? 'required' : 'missing_consent' }]);
    });

    it('missing_consent when consent is absent at the root and in customData (reason required)', () => {
      const error = rejection({ phone: '5145550123', customData: { campaign_name: 'x' } });
      expect(error).toMatchObject({ code: 'missing_consent', details: [{ field: 'sms_consent', reason: 'required' }] });
    });

    it('a refused root consent is not rescued by customData (the root has one)', () => {
      expect(rejection({ phone: '5145550123', sms_consent: 'no', customData: { sms_consent: 'oui' } }).code).toBe('missing_consent');
    });

    it('lists every problem found in details, the code being the first one (phone, then email, then consent)', () => {
      const error = rejection({ phone: 'abc', email: 'nope', sms_consent: 'no' });
      expect(error.code).toBe('invalid_phone');
      expect(error.details).toEqual([
        { field: 'phone', reason: 'invalid_phone' },
        { field: 'email', reason: 'invalid_email' },
        { field: 'sms_consent', reason: 'missing_consent' },
      ]);
    });

    it('is a DomainError (rendered by the envelope filter), never a crash, for odd bodies', () => {
      for (const body of [{ phone: { toString: 1 } }, { phone: [1, 2] }, { phone: '5145550123', sms_consent: { yes: true } }, { ['__x']: 1 }]) {
        expect(() => parseLeadCapture(body)).toThrow(DomainError);
      }
    });
  });

  describe('accepted values', () => {
    it('reads a full body', () => {
      const lead = parseLeadCapture({
        first_name: ' Élise ',
        last_name: 'Côté',
        email: 'Elise.Cote@Videotron.CA',
        phone: 15145550123,
        sms_consent: 'OUI',
        source_label: 'Webflow',
        notes: 'Cuisine',
        utm: { source: 'facebook', medium: 'paid_social', campaign: 'c' },
        gclid: 'abc',
        tags: ['Cuisine', ' Cuisine ', 'Facebook Ads', ''],
        qualification_answers: [{ question: 'q', answer: 'a' }],
        custom_fields: { budget: '25 000 $' },
        street: '118, rue des Érables',
        city: 'Terrebonne',
        postal_code: 'J6W 2K1',
        system_id: 'x',
        meta: { ads_consent: true },
      });
      expect(lead).toMatchObject({
        phone: '+15145550123',
        email: 'elise.cote@videotron.ca',
        firstName: 'Élise',
        lastName: 'Côté',
        sourceLabel: 'Webflow',
        notes: 'Cuisine',
        utm: { source: 'facebook', medium: 'paid_social', campaign: 'c' },
        gclid: 'abc',
        adsConsent: true,
        tags: ['Cuisine', 'Facebook Ads'],
        qualificationAnswers: [{ question: 'q', answer: 'a' }],
        customFields: { budget: '25 000 $' },
        address: { street: '118, rue des Érables', city: 'Terrebonne', postalCode: 'J6W 2K1' },
        systemId: 'x',
      });
      expect(lead.ignored.size).toBe(0);
    });

    it('consent in customData is accepted when the root has none', () => {
      const lead = parseLeadCapture({ phone: '5145550112', customData: { sms_consent: 'oui', form_page: '/x' } });
      expect(lead.ignored.toResponse().ignored_fields).toEqual([{ field: 'customData.form_page', reason: 'unknown_field' }]);
    });

    it('a customData consent beside a root one is a duplicate_field', () => {
      expect(ignoredOf({ customData: { sms_consent: 'oui' } })).toEqual([{ field: 'customData.sms_consent', reason: 'duplicate_field' }]);
    });

    it('null and blank optional values read as not sent', () => {
      const lead = parseLeadCapture({ ...VALID, email: '', first_name: null, tags: null, utm: null, city: '  ' });
      expect(lead).toMatchObject({ email: null, firstName: null, tags: [], utm: {}, address: {} });
      expect(lead.ignored.size).toBe(0);
    });

    it('meta.ads_consent: false (or any non-consent value) refuses ad tracking', () => {
      expect(parseLeadCapture({ ...VALID, meta: { ads_consent: false } }).adsConsent).toBe(false);
      expect(parseLeadCapture({ ...VALID, meta: { ads_consent: 'no' } }).adsConsent).toBe(false);
      expect(parseLeadCapture({ ...VALID, meta: { ads_consent: true } }).adsConsent).toBe(true);
      expect(parseLeadCapture({ ...VALID }).adsConsent).toBe(true);
    });
  });

  describe('ignored_fields reasons', () => {
    it('unknown_field at the root, in utm, in meta, in pipeline and in customData', () => {
      expect(
        ignoredOf({
          form_name: 'x',
          utm: { utm_source: 'a', source: 'b' },
          meta: { page: 1 },
          pipeline: { id: 'p', stage_slug: 'nouveau' },
          customData: { form_page: '/' },
          company: 'Tremblay',
        }),
      ).toEqual([
        { field: 'form_name', reason: 'unknown_field' },
        { field: 'utm.utm_source', reason: 'unknown_field' },
        { field: 'meta.page', reason: 'unknown_field' },
        { field: 'pipeline.id', reason: 'unknown_field' },
        { field: 'company', reason: 'unknown_field' },
        { field: 'customData.form_page', reason: 'unknown_field' },
      ]);
    });

    it('reserved_tag for Campagne : names in any casing and spacing, by index', () => {
      const lead = parseLeadCapture({ ...VALID, tags: ['Salle de bain', 'Campagne : Été 2026', 'campagne:été 2026', 'CAMPAGNE  :x', 'Référence'] });
      expect(lead.tags).toEqual(['Salle de bain', 'Référence']);
      expect(lead.ignored.toResponse().ignored_fields).toEqual([
        { field: 'tags[1]', reason: 'reserved_tag' },
        { field: 'tags[2]', reason: 'reserved_tag' },
        { field: 'tags[3]', reason: 'reserved_tag' },
      ]);
    });

    it('the pipeline block may be sent flat (pipeline.pipeline_slug); nested wins and the flat copy is a duplicate_field', () => {
      const flat = parseLeadCapture({ ...VALID, 'pipeline.pipeline_slug': 'renovation', 'pipeline.stage_slug': 'premier-contact' });
      expect(flat.pipeline).toMatchObject({ pipelineSlug: 'renovation', stageSlug: 'premier-contact', sent: ['pipeline_slug', 'stage_slug'] });
      expect(flat.ignored.size).toBe(0);
      const both = parseLeadCapture({ ...VALID, pipeline: { pipeline_slug: 'renovation' }, 'pipeline.pipeline_slug': 'ventes', 'pipeline.stage_slug': 'visite' });
      expect(both.pipeline).toMatchObject({ pipelineSlug: 'renovation', stageSlug: 'visite' });
      expect(both.ignored.toResponse().ignored_fields).toEqual([{ field: 'pipeline.pipeline_slug', reason: 'duplicate_field' }]);
      expect(ignoredOf({ 'pipeline.id': 'x' })).toEqual([{ field: 'pipeline.id', reason: 'unknown_field' }]);
    });

    it('reads deal_value, expected_close_date and assigned_sales_rep_email', () => {
      const lead = parseLeadCapture({
        ...VALID,
        pipeline: { deal_value: 45000.5, expected_close_date: '2026-09-30', assigned_sales_rep_email: 'Julie@Tremblay.test' },
      });
      expect(lead.pipeline).toEqual({
        pipelineSlug: null,
        stageSlug: null,
        dealValueCents: 4500050,
        expectedCloseDate: '2026-09-30',
        salesRepEmail: 'julie@tremblay.test',
        sent: ['deal_value', 'expected_close_date', 'assigned_sales_rep_email'],
      });
    });

    it('invalid_value for unusable optional values: the lead is still captured', () => {
      expect(
        ignoredOf({
          first_name: 42,
          last_name: 'x'.repeat(201),
          tags: ['ok', 7],
          utm: 'facebook',
          pipeline: { deal_value: -5, expected_close_date: '2026-02-30', stage_slug: 12 },
          qualification_answers: 'yes',
          custom_fields: ['budget'],
          city: { name: 'Laval' },
        }),
      ).toEqual([
        { field: 'first_name', reason: 'invalid_value' },
        { field: 'last_name', reason: 'invalid_value' },
        { field: 'tags[1]', reason: 'invalid_value' },
        { field: 'utm', reason: 'invalid_value' },
        { field: 'qualification_answers', reason: 'invalid_value' },
        { field: 'custom_fields', reason: 'invalid_value' },
        { field: 'city', reason: 'invalid_value' },
        { field: 'pipeline.stage_slug', reason: 'invalid_value' },
        { field: 'pipeline.deal_value', reason: 'invalid_value' },
        { field: 'pipeline.expected_close_date', reason: 'invalid_value' },
      ]);
    });
  });

  describe('text safe to store', () => {
    it('removes NUL and replaces unpaired surrogates (PostgreSQL text and jsonb refuse them)', () => {
      expect(cleanText('a\u0000b')).toBe('ab');
      expect(cleanText('x\ud800y\udc00')).toBe('x\ufffdy\ufffd');
      expect(cleanText('👩‍🔧 Élise')).toBe('👩‍🔧 Élise');
    });

    it('cleans what is kept; an email with a control character is invalid; deep qualification answers are invalid_value', () => {
      const lead = parseLeadCapture({ ...VALID, notes: 'a\u0000b', tags: ['t\u0000'], qualification_answers: [{ q: 'x\ud800' }] });
      expect(lead).toMatchObject({ notes: 'ab', tags: ['t'], qualificationAnswers: [{ q: 'x\ufffd' }] });
      expect(rejection({ ...VALID, email: 'a\u0000@b.co' }).code).toBe('invalid_email');
      let deep: unknown = 'x';
      for (let index = 0; index < 20; index++) deep = { deeper: deep };
      expect(ignoredOf({ qualification_answers: [deep] })).toEqual([{ field: 'qualification_answers', reason: 'invalid_value' }]);
    });
  });
});
