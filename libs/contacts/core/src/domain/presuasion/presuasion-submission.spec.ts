import { DomainError } from '@leadflow/shared-kernel';
import { parsePresuasionSubmission, PresuasionSubmissionInput } from './presuasion-submission';

const NOW = new Date('2027-03-10T15:00:00.000Z');

function input(extra: Partial<PresuasionSubmissionInput> = {}): PresuasionSubmissionInput {
  return {
    tool: { slug: 'Quiz-Renovation', name: ' Quiz rénovation ' },
    answers: [{ question: ' Projet ? ', answer: 'Cuisine', questionId: 'q1', score: 2 }],
    person: { email: 'Nadia.Roy@Example.COM' },
    ...extra,
  };
}

/** The `{ field, reason }` pairs of the 400 `validation_error` thrown. */
function violations(value: PresuasionSubmissionInput): { field: string; reason: string }[] {
  try {
    parsePresuasionSubmission(value, NOW);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('validation_error');
    return ((error as DomainError).details as { field: string; reason: string }[]).map(({ field, reason }) => ({ field, reason }));
  }
  throw new Error('expected a validation_error');
}

describe('parsePresuasionSubmission', () => {
  it('normalises like lead capture: email lowercase, phone E.164 from a string with an extension or from an integer; tool slug lowercase', () => {
    const parsed = parsePresuasionSubmission(input({ person: { email: ' Nadia.Roy@Example.COM ', phone: '514-555-0142 ext. 12' } }), NOW);
    expect(parsed.person).toEqual({ email: 'nadia.roy@example.com', phone: '+15145550142', firstName: null, lastName: null, language: null });
    expect(parsed.toolSlug).toBe('quiz-renovation');
    expect(parsed.toolName).toBe('Quiz rénovation');
    expect(parsed.answers).toEqual([{ questionId: 'q1', question: 'Projet ?', answer: 'Cuisine', score: 2 }]);
    expect(parsePresuasionSubmission(input({ person: { phone: 15145550142 } }), NOW).person.phone).toBe('+15145550142');
  });

  it('what it brings to the contact: the lead data with the tool name as source label and first-touch attribution', () => {
    const parsed = parsePresuasionSubmission(input({ attribution: { utm: { source: 'facebook', medium: ' ' }, gclid: 'G-1' }, person: { email: 'a@b.ca', firstName: ' Nadia ' } }), NOW);
    expect(parsed.contact).toEqual({
      firstName: 'Nadia',
      lastName: null,
      email: 'a@b.ca',
      phone: null,
      customFields: {},
      address: {},
      attribution: { source: 'facebook', gclid: 'G-1' },
      sourceLabel: 'Quiz rénovation',
      notes: null,
    });
  });

  it('refused ad consent: no gclid on the submission, only the google / cpc origin on the contact', () => {
    const parsed = parsePresuasionSubmission(input({ consent: { ads: false }, attribution: { gclid: 'G-1' } }), NOW);
    expect(parsed.attribution.gclid).toBeNull();
    expect(parsed.contact.attribution).toEqual({ source: 'google', medium: 'cpc' });
  });

  it('submitted_at: the instant sent (with its offset), else now', () => {
    expect(parsePresuasionSubmission(input({ submittedAt: '2027-03-10T09:58:00-05:00' }), NOW).submittedAt.toISOString()).toBe('2027-03-10T14:58:00.000Z');
    expect(parsePresuasionSubmission(input({ submittedAt: '2027-03-10T15:04:59Z' }), NOW).submittedAt.toISOString()).toBe('2027-03-10T15:04:59.000Z');
    expect(parsePresuasionSubmission(input(), NOW).submittedAt).toEqual(NOW);
  });

  it('answers of every accepted type; a skipped question reads null', () => {
    const answers = [true, 3.5, ['a', 'b'], null, undefined, 'texte'].map((answer, index) => ({ question: `Q${index}`, answer }));
    expect(parsePresuasionSubmission(input({ answers }), NOW).answers.map((item) => item.answer)).toEqual([true, 3.5, ['a', 'b'], null, null, 'texte']);
  });

  it('identity_required on both identities when neither is usable', () => {
    expect(violations(input({ person: { email: ' ', phone: null, firstName: 'Sans' } }))).toEqual([
      { field: 'person.email', reason: 'identity_required' },
      { field: 'person.phone', reason: 'identity_required' },
    ]);
  });

  it('every problem at once, each with its field and reason', () => {
    expect(
      violations(
        input({
          tool: { slug: 'quiz rénovation', name: 'Campagne : Printemps' },
          person: { email: 'pas-une-adresse', phone: 'x'.repeat(51) },
          consent: { sms: 'maybe', email: 0 },
          answers: [{ question: ' ', answer: { a: 1 } }, { question: 'Q', answer: 'x'.repeat(5001) }, { question: 'Q', answer: Array(51).fill('a') }, { question: 'Q', answer: ['a', 2] }],
          attribution: { pageUrl: 'ftp://example.com', referrer: 'not a url' },
          submittedAt: '2027-03-10T15:05:01Z',
        }),
      ),
    ).toEqual([
      { field: 'tool.slug', reason: 'invalid_format' },
      { field: 'tool.name', reason: 'reserved_prefix' },
      { field: 'person.email', reason: 'invalid_format' },
      { field: 'person.phone', reason: 'too_long' },
      { field: 'consent.sms', reason: 'invalid_value' },
      { field: 'consent.email', reason: 'invalid_value' },
      { field: 'answers[0].answer', reason: 'invalid_type' },
      { field: 'answers[1].answer', reason: 'too_long' },
      { field: 'answers[2].answer', reason: 'too_many' },
      { field: 'answers[3].answer[1]', reason: 'invalid_type' },
      { field: 'answers[0].question', reason: 'required' },
      { field: 'attribution.page_url', reason: 'invalid_format' },
      { field: 'attribution.referrer', reason: 'invalid_format' },
      { field: 'submitted_at', reason: 'out_of_range' },
    ]);
  });

  it('oversize answers: more than 64,000 characters of JSON together', () => {
    const answers = Array.from({ length: 13 }, (_, index) => ({ question: `Q${index}`, answer: 'x'.repeat(5000) }));
    expect(violations(input({ answers }))).toEqual([{ field: 'answers', reason: 'too_large' }]);
  });

  it('an invalid phone (lead capture reasons) and an unreadable or too old submitted_at', () => {
    expect(violations(input({ person: { phone: '123' } }))).toEqual([{ field: 'person.phone', reason: 'invalid_phone' }]);
    expect(violations(input({ person: { phone: -5145550142 } }))).toEqual([{ field: 'person.phone', reason: 'invalid_phone' }]);
    expect(violations(input({ submittedAt: '2027-03-10' }))).toEqual([{ field: 'submitted_at', reason: 'invalid_datetime' }]);
    expect(violations(input({ submittedAt: '1999-12-31T23:59:59Z' }))).toEqual([{ field: 'submitted_at', reason: 'out_of_range' }]);
  });

  it('a blank tool name is required; a name over 100 characters too long', () => {
    expect(violations(input({ tool: { slug: 'quiz', name: '  ' } }))).toEqual([{ field: 'tool.name', reason: 'required' }]);
    expect(violations(input({ tool: { slug: 'quiz', name: 'x'.repeat(101) } }))).toEqual([{ field: 'tool.name', reason: 'too_long' }]);
  });
});
