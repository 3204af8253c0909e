import { parseBatchContactInput } from './batch-contact-input';

describe('parseBatchContactInput (one input of POST /v1/contacts/batch)', () => {
  it('normalises the email to lowercase and the phone to E.164, and maps the public names', () => {
    const { input } = parseBatchContactInput({ email: ' Julie.Tremblay@Example.COM ', phone: '(514) 555-0142', first_name: 'Julie', deal_value: 1500, system_id: null });
    expect(input).toMatchObject({ normalizedEmail: 'julie.tremblay@example.com', normalizedPhone: '+15145550142', firstName: 'Julie', dealValue: 1500, systemId: null });
    expect(input?.lastName).toBeUndefined();
  });

  it('an input that is not an object is invalid_type on the input itself', () => {
    for (const raw of [null, 'julie@example.com', 42, [], true]) {
      expect(parseBatchContactInput(raw).violations).toEqual([expect.objectContaining({ field: '', reason: 'invalid_type' })]);
    }
  });

  it('an unknown member is unknown_field; a member of the wrong type is invalid_type; a long one too_long', () => {
    const { violations } = parseBatchContactInput({ email: 'a@b.co', nickname: 'Ju', first_name: 7, company: 'x'.repeat(201), custom_fields: [] });
    expect(violations).toEqual([
      expect.objectContaining({ field: 'nickname', reason: 'unknown_field' }),
      expect.objectContaining({ field: 'first_name', reason: 'invalid_type' }),
      expect.objectContaining({ field: 'company', reason: 'too_long' }),
      expect.objectContaining({ field: 'custom_fields', reason: 'invalid_type' }),
    ]);
  });

  it('email or phone is required: identity_required on both (the input is matched by them)', () => {
    expect(parseBatchContactInput({ first_name: 'Julie' }).violations).toEqual([
      expect.objectContaining({ field: 'email', reason: 'identity_required' }),
      expect.objectContaining({ field: 'phone', reason: 'identity_required' }),
    ]);
  });

  it('a bad email is invalid_format, a phone that does not normalise invalid_phone', () => {
    expect(parseBatchContactInput({ email: 'pas-une-adresse', phone: '123' }).violations).toEqual([
      expect.objectContaining({ field: 'email', reason: 'invalid_format' }),
      expect.objectContaining({ field: 'phone', reason: 'invalid_phone' }),
    ]);
  });

  it('a non-finite deal_value is invalid_type', () => {
    expect(parseBatchContactInput({ email: 'a@b.co', deal_value: Number.NaN }).violations).toEqual([expect.objectContaining({ field: 'deal_value', reason: 'invalid_type' })]);
  });
});
