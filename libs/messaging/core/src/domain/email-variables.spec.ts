import { recipientVariableValues, renderEmailVariables, SAMPLE_VARIABLE_VALUES } from './email-variables';

describe('email variables (POST /v1/emails/send)', () => {
  it('fills every known {{contact.*}} variable with the sample values in test mode', () => {
    const rendered = renderEmailVariables(
      'Bonjour {{contact.first_name}} {{ contact.last_name }} ({{contact.full_name}}, {{contact.email}}, {{contact.phone}}, {{contact.company}})',
      SAMPLE_VARIABLE_VALUES,
      { html: false },
    );
    expect(rendered).toBe('Bonjour Marie Tremblay (Marie Tremblay, marie.tremblay@example.com, +15145550100, Exemple inc.)');
  });

  it('leaves unknown variables as written', () => {
    expect(renderEmailVariables('{{contact.shoe_size}} {{event.x}} {{contact.first_name}}', SAMPLE_VARIABLE_VALUES, { html: false })).toBe(
      '{{contact.shoe_size}} {{event.x}} Marie',
    );
  });

  it('HTML-escapes values in a body, so a value never adds markup', () => {
    const values = recipientVariableValues('x@example.com', { first_name: '<b>Jo</b> & "Al"', last_name: null, email: null, phone: null, company: null });
    expect(renderEmailVariables('<p>{{contact.first_name}}</p>', values, { html: true })).toBe('<p>&lt;b&gt;Jo&lt;/b&gt; &amp; &quot;Al&quot;</p>');
  });

  it("fills a real send from the recipient's contact, and with the address alone when no contact holds it", () => {
    expect(recipientVariableValues('nadia@example.com', { first_name: 'Nadia', last_name: 'Bélanger', email: 'nadia@example.com', phone: null, company: 'NB' })).toEqual({
      first_name: 'Nadia',
      last_name: 'Bélanger',
      full_name: 'Nadia Bélanger',
      email: 'nadia@example.com',
      phone: '',
      company: 'NB',
    });
    expect(recipientVariableValues('nadia@example.com', null)).toEqual({
      first_name: '',
      last_name: '',
      full_name: '',
      email: 'nadia@example.com',
      phone: '',
      company: '',
    });
  });
});
