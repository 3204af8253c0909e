import { asAccountId, DomainError, ValidationFailedError } from '@leadflow/shared-kernel';
import type { LeadAction, QuoteStatus } from '@leadflow/quotes-contracts';
import { NewQuoteContext, NewQuoteInput, Quote, QuoteState } from './quote.aggregate';

const NOW = new Date('2026-05-03T14:00:00.000Z');
const LATER = new Date('2026-05-04T14:00:00.000Z');
const TODAY = '2026-05-03';

const context = (extra: Partial<NewQuoteContext> = {}): NewQuoteContext => ({
  id: '7d3c0c1e-3c1f-4a57-9d2b-0d6f2f2b8a11',
  accountId: asAccountId('5f0c7c1e-3c1f-4a57-9d2b-0d6f2f2b8a11'),
  quoteNumber: '2026-0001',
  now: NOW,
  defaultValidUntil: '2026-06-02',
  timezone: 'America/Montreal',
  defaults: { validityDays: 30, paymentTerms: 'Payable à la signature', signaturePaymentOrder: 'signature_first', taxProfile: 'gst_qst' },
  contact: null,
  ...extra,
});

const PRICED: NewQuoteInput = {
  prospectName: 'Nadia Bélanger',
  prospectEmail: 'nadia@example.com',
  lineItems: [{ description: 'Armoires', quantity: 1, unitPrice: 100 }],
};

function quote(input: NewQuoteInput = PRICED, extra: Partial<NewQuoteContext> = {}): Quote {
  return Quote.create(input, context(extra));
}

/** A quote in `status` with the other members as given. */
function inState(status: QuoteStatus, patch: Partial<QuoteState> = {}): Quote {
  return Quote.restore({ ...quote().snapshot, status, ...patch });
}

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
  throw new Error('expected a DomainError');
}

function violationsOf(run: () => unknown): { field: string; reason: string }[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationFailedError) return (error.details as { field: string; reason: string }[]).map(({ field, reason }) => ({ field, reason }));
    throw error;
  }
  throw new Error('expected a ValidationFailedError');
}

describe('Quote.create (POST /v1/quotes)', () => {
  it('starts as a draft with the number and the account defaults', () => {
    const state = quote({ lineItems: [{ description: 'Pose', quantity: 2.5, unitPrice: 10.01 }] }).snapshot;
    expect(state).toMatchObject({
      status: 'draft',
      quoteNumber: '2026-0001',
      language: 'fr',
      validUntil: '2026-06-02',
      paymentTerms: 'Payable à la signature',
      signaturePaymentOrder: 'signature_first',
      taxProfileId: null,
      taxProfile: 'gst_qst',
      paymentPlanType: 'full',
      paymentExecutionMode: 'manual',
      subtotalCents: 2503,
      tpsCents: 125,
      tvqCents: 250,
      totalCents: 2878,
    });
    expect(state.lineItems).toEqual([{ description: 'Pose', quantity: '2.5', unitPrice: '10.01' }]);
  });

  it('sub-cent unit prices: unit_price and quantity up to 4 decimals kept exactly; subtotal rounded half-up once, taxes on it', () => {
    const state = quote({ lineItems: [{ description: 'Plancher (pi²)', quantity: 1250.5, unitPrice: 2.375 }, { description: 'Vis', quantity: 3, unitPrice: 0.333 }] }).snapshot;
    expect(state.lineItems).toEqual([
      { description: 'Plancher (pi²)', quantity: '1250.5', unitPrice: '2.375' },
      { description: 'Vis', quantity: '3', unitPrice: '0.333' },
    ]);
    // 2969.9375 + 0.999 = 2970.9365 → 2970.94; TPS 148.547 → 148.55; TVQ 296.351265 → 296.35
    expect(state).toMatchObject({ subtotalCents: 297_094, tpsCents: 14_855, tvqCents: 29_635, totalCents: 341_584 });
    expect(state.lineItems.map(Quote.lineAmount)).toEqual([296_994, 100]);
  });

  it('sub-cent unit prices: a fifth decimal gives 400 validation_error reason invalid_value; negative or above 1000000 out_of_range', () => {
    expect(violationsOf(() => quote({ lineItems: [{ description: 'A', unitPrice: 2.37501 }, { description: 'B', unitPrice: 1e-7 }, { description: 'C', unitPrice: 1_000_000.0001 }] }))).toEqual([
      { field: 'line_items[0].unit_price', reason: 'invalid_value' },
      { field: 'line_items[1].unit_price', reason: 'invalid_value' },
      { field: 'line_items[2].unit_price', reason: 'out_of_range' },
    ]);
    expect(quote({ lineItems: [{ description: 'A', unitPrice: 1_000_000 }, { description: 'B', unitPrice: 0.0001 }] }).snapshot.lineItems.map((line) => line.unitPrice)).toEqual(['1000000', '0.0001']);
  });

  it('given values win over the defaults; valid_until null means no date', () => {
    const state = quote({ validUntil: null, paymentTerms: null, signaturePaymentOrder: 'payment_first', taxProfileId: 'gst', language: 'en' }).snapshot;
    expect(state).toMatchObject({ validUntil: null, paymentTerms: null, signaturePaymentOrder: 'payment_first', taxProfileId: 'gst', taxProfile: 'gst', language: 'en' });
  });

  it('omitted prospect fields are read from the contact; given ones (even null) win', () => {
    const contact = { id: 'c1', name: 'Julie Roy', email: 'julie@example.com', phone: '+15145550142', company: 'Condos Roy' };
    const state = quote({ prospectCompany: null, lineItems: [] }, { contact }).snapshot;
    expect(state).toMatchObject({ contactId: 'c1', prospectName: 'Julie Roy', prospectEmail: 'julie@example.com', prospectPhone: '+15145550142', prospectCompany: null });
  });

  it('tax_exempt_reason: the quote has no tax', () => {
    expect(quote({ ...PRICED, taxExemptReason: '  Organisme autochtone  ' }).snapshot).toMatchObject({ taxExemptReason: 'Organisme autochtone', tpsCents: 0, tvqCents: 0, totalCents: 10_000 });
  });

  it('refuses out-of-list values, bad dates, empty or long exemption reasons and bad lines, all at once (400 validation_error)', () => {
    expect(
      violationsOf(() =>
        quote({
          language: 'de',
          signaturePaymentOrder: 'whenever',
          taxProfileId: 'hst',
          validUntil: '2026-02-30',
          taxExemptReason: '   ',
          lineItems: [
            { description: '', quantity: 0, unitPrice: -1 },
            { description: 'x'.repeat(1001), quantity: 1.00001, unitPrice: 1.00005 },
          ],
        }),
      ),
    ).toEqual([
      { field: 'language', reason: 'invalid_value' },
      { field: 'signature_payment_order', reason: 'invalid_value' },
      { field: 'tax_profile_id', reason: 'invalid_value' },
      { field: 'valid_until', reason: 'invalid_format' },
      { field: 'tax_exempt_reason', reason: 'too_short' },
      { field: 'line_items[0].description', reason: 'required' },
      { field: 'line_items[0].quantity', reason: 'out_of_range' },
      { field: 'line_items[0].unit_price', reason: 'out_of_range' },
      { field: 'line_items[1].description', reason: 'too_long' },
      { field: 'line_items[1].quantity', reason: 'invalid_value' },
      { field: 'line_items[1].unit_price', reason: 'invalid_value' },
    ]);
    expect(violationsOf(() => quote({ taxExemptReason: 'x'.repeat(201) }))).toEqual([{ field: 'tax_exempt_reason', reason: 'too_long' }]);
  });
});

describe('PATCH rules (Quote.checkPatch, Quote.update)', () => {
  it('rule 1: no field gives 400 no_fields', () => {
    expect(codeOf(() => Quote.checkPatch({}))).toBe('no_fields');
    expect(codeOf(() => Quote.checkPatch({ prospectName: undefined }))).toBe('no_fields');
  });

  it('rule 2: status must be sent alone (400 validation_error reason exclusive_field)', () => {
    expect(violationsOf(() => Quote.checkPatch({ status: 'cancelled', prospectName: 'X' }))).toEqual([
      { field: 'status', reason: 'exclusive_field' },
      { field: 'prospect_name', reason: 'exclusive_field' },
    ]);
  });

  it('rule 2: status accepts only declined and cancelled', () => {
    expect(violationsOf(() => Quote.checkPatch({ status: 'signed' }))).toEqual([{ field: 'status', reason: 'invalid_value' }]);
    expect(() => Quote.checkPatch({ status: 'declined' })).not.toThrow();
  });

  it.each<[QuoteStatus, 'declined' | 'cancelled']>([
    ['draft', 'cancelled'],
    ['sent', 'cancelled'],
    ['viewed', 'declined'],
    ['draft', 'declined'],
  ])('rule 2: %s → PATCH status %s', (from, to) => {
    const subject = inState(from);
    const changes = subject.update({ status: to }, LATER, 'gst_qst');
    expect(subject.snapshot.status).toBe(to);
    expect(changes).toEqual({ status: { previous: from, current: to } });
    expect(subject.snapshot[to === 'declined' ? 'declinedAt' : 'cancelledAt']).toEqual(LATER);
  });

  it.each<QuoteStatus>(['signed', 'paid', 'declined', 'cancelled', 'expired'])('rule 2: a %s quote gives 409 status_locked', (status) => {
    expect(codeOf(() => inState(status).update({ status: 'cancelled' }, LATER, 'gst_qst'))).toBe('status_locked');
  });

  it('rule 2: a quote with a payment collected gives 409 status_locked', () => {
    expect(codeOf(() => inState('viewed', { amountPaidCents: 100, paymentsCount: 1 }).update({ status: 'cancelled' }, LATER, 'gst_qst'))).toBe('status_locked');
  });

  it('rule 3: a deposit plan needs its type and value; a full plan refuses them (400 validation_error)', () => {
    expect(violationsOf(() => quote().update({ paymentPlanType: 'deposit' }, LATER, 'gst_qst'))).toEqual([
      { field: 'payment_deposit_type', reason: 'required' },
      { field: 'payment_deposit_value', reason: 'required' },
    ]);
    expect(violationsOf(() => quote().update({ paymentDepositType: 'fixed', paymentDepositValue: 10 }, LATER, 'gst_qst'))).toEqual([
      { field: 'payment_deposit_type', reason: 'invalid_value' },
      { field: 'payment_deposit_value', reason: 'invalid_value' },
    ]);
    expect(violationsOf(() => quote().update({ paymentPlanType: 'installments', paymentInstallmentsCount: 3 }, LATER, 'gst_qst'))).toEqual([
      { field: 'payment_interval_days', reason: 'required' },
    ]);
    expect(violationsOf(() => quote().update({ paymentPlanType: 'deposit', paymentDepositType: 'percentage', paymentDepositValue: 100 }, LATER, 'gst_qst'))).toEqual([
      { field: 'payment_deposit_value', reason: 'out_of_range' },
    ]);
  });

  it('rule 3: a consistent plan is accepted; changing the type starts from empty plan fields', () => {
    const subject = quote();
    subject.update({ paymentPlanType: 'deposit', paymentDepositType: 'percentage', paymentDepositValue: 25.5 }, LATER, 'gst_qst');
    expect(subject.snapshot).toMatchObject({ paymentPlanType: 'deposit', paymentDepositType: 'percentage', paymentDepositValue: 2550 });
    subject.update({ paymentPlanType: 'installments', paymentInstallmentsCount: 3, paymentIntervalDays: 30 }, LATER, 'gst_qst');
    expect(subject.snapshot).toMatchObject({ paymentPlanType: 'installments', paymentDepositType: null, paymentDepositValue: null, paymentInstallmentsCount: 3 });
    subject.update({ paymentPlanType: 'full' }, LATER, 'gst_qst');
    expect(subject.snapshot).toMatchObject({ paymentPlanType: 'full', paymentInstallmentsCount: null, paymentIntervalDays: null });
  });

  it('rule 3: once a payment is collected the plan is locked (409 payment_plan_locked)', () => {
    const paid = inState('signed', { amountPaidCents: 500, paymentsCount: 1 });
    expect(codeOf(() => paid.update({ paymentExecutionMode: 'automatic' }, LATER, 'gst_qst'))).toBe('payment_plan_locked');
    expect(() => paid.update({ internalNotes: 'ok' }, LATER, 'gst_qst')).not.toThrow();
  });

  it('rule 4: signature_payment_order is editable while draft only (409 signature_payment_order_locked)', () => {
    const draft = quote();
    draft.update({ signaturePaymentOrder: 'payment_first' }, LATER, 'gst_qst');
    expect(draft.snapshot.signaturePaymentOrder).toBe('payment_first');
    expect(codeOf(() => inState('sent').update({ signaturePaymentOrder: 'payment_first' }, LATER, 'gst_qst'))).toBe('signature_payment_order_locked');
  });

  it.each<QuoteStatus>(['sent', 'viewed', 'signed', 'paid', 'declined', 'cancelled', 'expired'])(
    'locked field means locked: signature_payment_order named on a %s quote gives 409 signature_payment_order_locked even with the current value, and changes nothing',
    (status) => {
      const subject = inState(status, { prospectName: 'Avant' });
      const before = subject.snapshot;
      let refusal: unknown;
      try {
        subject.update({ signaturePaymentOrder: before.signaturePaymentOrder, prospectName: 'Après' }, LATER, 'gst_qst');
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(DomainError);
      expect(refusal).toMatchObject({ code: 'signature_payment_order_locked', details: { field: 'signature_payment_order', status } });
      expect(subject.snapshot).toEqual(before);
    },
  );

  it.each([
    ['payment_plan_type', { paymentPlanType: 'full' }],
    ['payment_execution_mode', { paymentExecutionMode: 'manual' }],
    ['payment_deposit_type', { paymentDepositType: null }],
    ['payment_deposit_value', { paymentDepositValue: null }],
    ['payment_installments_count', { paymentInstallmentsCount: null }],
    ['payment_interval_days', { paymentIntervalDays: null }],
  ])(
    'locked field means locked: %s with its current value once a payment is collected gives 409 payment_plan_locked and changes nothing',
    (field, patch) => {
      const paid = inState('signed', { amountPaidCents: 500, paymentsCount: 1 });
      const before = paid.snapshot;
      let refusal: unknown;
      try {
        paid.update({ ...patch, internalNotes: 'Acompte reçu' }, LATER, 'gst_qst');
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toMatchObject({ code: 'payment_plan_locked', details: { conflicting_fields: [field] } });
      expect(paid.snapshot).toEqual(before);
    },
  );

  it('rule 5: tax_exempt_reason recomputes the totals; null makes the quote taxed again', () => {
    const subject = quote();
    const exempt = subject.update({ taxExemptReason: 'Bande de Kahnawake' }, LATER, 'gst_qst');
    expect(exempt).toMatchObject({ tps_amount: { previous: 500, current: 0 }, tvq_amount: { previous: 998, current: 0 }, total: { previous: 11_498, current: 10_000 } });
    subject.update({ taxExemptReason: null }, LATER, 'gst_qst');
    expect(subject.snapshot).toMatchObject({ taxExemptReason: null, tpsCents: 500, tvqCents: 998, totalCents: 11_498 });
    expect(violationsOf(() => Quote.checkPatch({ taxExemptReason: '' }))).toEqual([{ field: 'tax_exempt_reason', reason: 'too_short' }]);
  });

  it('tax_profile_id null falls back to the account profile', () => {
    const subject = quote({ ...PRICED, taxProfileId: 'none' });
    expect(subject.snapshot.totalCents).toBe(10_000);
    subject.update({ taxProfileId: null }, LATER, 'gst');
    expect(subject.snapshot).toMatchObject({ taxProfileId: null, taxProfile: 'gst', totalCents: 10_500 });
  });

  it('a PATCH that changes nothing reports no change and keeps updated_at', () => {
    const subject = quote();
    expect(subject.update({ prospectName: 'Nadia Bélanger' }, LATER, 'gst_qst')).toEqual({});
    expect(subject.snapshot.updatedAt).toEqual(NOW);
  });
});

describe('sending preconditions (Quote.assertSendable)', () => {
  it('a priced, taxed draft with an email can be sent', () => {
    expect(quote().assertSendable(TODAY)).toBe('nadia@example.com');
  });

  it.each<[QuoteStatus, string]>([
    ['signed', 'already_signed'],
    ['paid', 'already_signed'],
    ['cancelled', 'quote_cancelled'],
    ['sent', 'already_sent'],
    ['viewed', 'already_sent'],
    ['declined', 'already_sent'],
    ['expired', 'quote_status_changed'],
  ])('only a draft: %s gives %s', (status, code) => {
    expect(codeOf(() => inState(status).assertSendable(TODAY))).toBe(code);
  });

  it('a draft past its validity date gives quote_status_changed', () => {
    expect(codeOf(() => quote({ ...PRICED, validUntil: '2026-05-02' }).assertSendable(TODAY))).toBe('quote_status_changed');
  });

  it('422 no_prospect_email, invalid_prospect_email', () => {
    expect(codeOf(() => quote({ ...PRICED, prospectEmail: null }).assertSendable(TODAY))).toBe('no_prospect_email');
    expect(codeOf(() => quote({ ...PRICED, prospectEmail: 'nadia at example' }).assertSendable(TODAY))).toBe('invalid_prospect_email');
  });

  it('422 unpriced_lines: no line, an unpriced line, or nothing to pay', () => {
    expect(codeOf(() => quote({ ...PRICED, lineItems: [] }).assertSendable(TODAY))).toBe('unpriced_lines');
    expect(codeOf(() => quote({ ...PRICED, lineItems: [{ description: 'A', unitPrice: 5 }, { description: 'B' }] }).assertSendable(TODAY))).toBe('unpriced_lines');
    expect(codeOf(() => quote({ ...PRICED, lineItems: [{ description: 'Gratuit', unitPrice: 0 }] }).assertSendable(TODAY))).toBe('unpriced_lines');
  });

  it('422 untaxed_quote: taxes 0 without an exemption reason (profile none, or a subtotal too small to tax)', () => {
    expect(codeOf(() => quote({ ...PRICED, taxProfileId: 'none' }).assertSendable(TODAY))).toBe('untaxed_quote');
    expect(codeOf(() => quote({ ...PRICED, lineItems: [{ description: 'Vis', unitPrice: 0.01 }] }).assertSendable(TODAY))).toBe('untaxed_quote');
    expect(() => quote({ ...PRICED, taxProfileId: 'none', taxExemptReason: 'Exportation' }).assertSendable(TODAY)).not.toThrow();
  });

  it('422 deposit_not_payable: a fixed deposit above the total, or a percentage rounding to 0.00', () => {
    const over = quote();
    over.update({ paymentPlanType: 'deposit', paymentDepositType: 'fixed', paymentDepositValue: 200 }, LATER, 'gst_qst');
    expect(codeOf(() => over.assertSendable(TODAY))).toBe('deposit_not_payable');
    const tiny = quote({ ...PRICED, lineItems: [{ description: 'Vis', unitPrice: 0.2 }] });
    tiny.update({ paymentPlanType: 'deposit', paymentDepositType: 'percentage', paymentDepositValue: 1 }, LATER, 'gst_qst');
    expect(codeOf(() => tiny.assertSendable(TODAY))).toBe('deposit_not_payable');
  });
});

describe('lead actions and dates (States › Quote)', () => {
  const act = (subject: Quote, action: LeadAction, today = TODAY) => subject.applyLeadAction(action, LATER, today);

  it('view: sent → viewed; no change from viewed, signed, declined; a draft was never sent', () => {
    const sent = inState('sent');
    expect(act(sent, 'view')).toEqual({ changed: true, paymentCents: null });
    expect(sent.snapshot).toMatchObject({ status: 'viewed', viewedAt: LATER });
    expect(act(sent, 'view').changed).toBe(false);
    expect(act(inState('signed'), 'view').changed).toBe(false);
    expect(codeOf(() => act(inState('draft'), 'view'))).toBe('status_locked');
    expect(codeOf(() => act(inState('cancelled'), 'view'))).toBe('quote_cancelled');
  });

  it('sign: sent or viewed → signed; refusals already_signed, quote_cancelled, status_locked', () => {
    const viewed = inState('viewed');
    act(viewed, 'sign');
    expect(viewed.snapshot).toMatchObject({ status: 'signed', signedAt: LATER });
    expect(codeOf(() => act(viewed, 'sign'))).toBe('already_signed');
    expect(codeOf(() => act(inState('cancelled'), 'sign'))).toBe('quote_cancelled');
    for (const status of ['draft', 'declined', 'expired'] as const) expect(codeOf(() => act(inState(status), 'sign'))).toBe('status_locked');
  });

  it('sign: refused once the validity date passed, even before the expiry job ran', () => {
    expect(codeOf(() => act(inState('sent', { validUntil: '2026-05-02' }), 'sign'))).toBe('status_locked');
  });

  it('decline: sent or viewed → declined', () => {
    const sent = inState('sent');
    act(sent, 'decline');
    expect(sent.snapshot).toMatchObject({ status: 'declined', declinedAt: LATER });
    expect(codeOf(() => act(inState('signed'), 'decline'))).toBe('already_signed');
    expect(codeOf(() => act(sent, 'decline'))).toBe('status_locked');
  });

  it('pay (signature_first): needs a signature, then records the total and the quote is paid', () => {
    expect(codeOf(() => act(inState('viewed'), 'pay'))).toBe('status_locked');
    const signed = inState('signed');
    expect(act(signed, 'pay')).toEqual({ changed: true, paymentCents: 11_498 });
    expect(signed.snapshot).toMatchObject({ status: 'paid', amountPaidCents: 11_498, paymentsCount: 1, paidAt: LATER });
    expect(codeOf(() => act(signed, 'pay'))).toBe('status_locked');
  });

  it('pay (deposit plan): the deposit, then the balance', () => {
    const subject = quote();
    subject.update({ paymentPlanType: 'deposit', paymentDepositType: 'percentage', paymentDepositValue: 30 }, LATER, 'gst_qst');
    const signed = Quote.restore({ ...subject.snapshot, status: 'signed' });
    expect(act(signed, 'pay').paymentCents).toBe(3449); // 30 % of 114.98 = 34.494 → 34.49
    expect(signed.snapshot.status).toBe('signed');
    expect(act(signed, 'pay').paymentCents).toBe(8049);
    expect(signed.snapshot).toMatchObject({ status: 'paid', amountPaidCents: 11_498 });
  });

  it('pay (installments): equal parts, the last one absorbs the rounding', () => {
    const subject = quote();
    subject.update({ paymentPlanType: 'installments', paymentInstallmentsCount: 3, paymentIntervalDays: 30 }, LATER, 'gst_qst');
    const signed = Quote.restore({ ...subject.snapshot, status: 'signed' });
    expect([act(signed, 'pay').paymentCents, act(signed, 'pay').paymentCents, act(signed, 'pay').paymentCents]).toEqual([3832, 3832, 3834]);
    expect(signed.snapshot.status).toBe('paid');
  });

  it('payment_first: pay before signing; sign needs a payment; signature_only refuses pay', () => {
    const first = inState('viewed', { signaturePaymentOrder: 'payment_first' });
    expect(codeOf(() => act(first, 'sign'))).toBe('status_locked');
    act(first, 'pay');
    expect(first.snapshot).toMatchObject({ status: 'viewed', amountPaidCents: 11_498 });
    act(first, 'sign');
    expect(first.snapshot).toMatchObject({ status: 'paid', signedAt: LATER, paidAt: LATER });
    expect(codeOf(() => act(inState('signed', { signaturePaymentOrder: 'signature_only' }), 'pay'))).toBe('status_locked');
  });

  it('expire: draft, sent and viewed quotes past valid_until become expired; the date is inclusive', () => {
    const sent = inState('sent', { validUntil: '2026-05-02' });
    expect(sent.expire(LATER, TODAY)).toBe(true);
    expect(sent.snapshot).toMatchObject({ status: 'expired', expiredAt: LATER });
    expect(inState('sent', { validUntil: TODAY }).expire(LATER, TODAY)).toBe(false);
    expect(inState('signed', { validUntil: '2026-05-02' }).expire(LATER, TODAY)).toBe(false);
    expect(inState('viewed', { validUntil: null }).expire(LATER, TODAY)).toBe(false);
    expect(inState('viewed', { validUntil: '2026-05-01', amountPaidCents: 1 }).expire(LATER, TODAY)).toBe(false);
  });

  it('archive is idempotent', () => {
    const subject = quote();
    expect(subject.archive(LATER)).toBe(true);
    expect(subject.archive(LATER)).toBe(false);
  });
});

