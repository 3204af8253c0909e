import { DomainError } from '@leadflow/shared-kernel';
import type { CalendarQuestionSpec } from '@leadflow/bookings-contracts';
import { checkFormResponses } from './questions';

const QUESTIONS: CalendarQuestionSpec[] = [
  { id: 'adresse', label: 'Adresse', type: 'text', required: true, options: null },
  { id: 'type', label: 'Type', type: 'select', required: false, options: ['a', 'b'] },
  { id: 'pieces', label: 'Pièces', type: 'multi_select', required: false, options: ['x', 'y'] },
];

const failure = (responses: Record<string, unknown> | null) => {
  try {
    checkFormResponses(QUESTIONS, responses);
    return null;
  } catch (error) {
    return (error as DomainError).details;
  }
};

describe('form_responses against the calendar questions', () => {
  it('keeps valid answers, drops blank optional ones', () => {
    expect(checkFormResponses(QUESTIONS, { adresse: { value: ' 1 rue ' }, type: { value: null }, pieces: { value: ['y', 'x'] } })).toEqual({
      adresse: { value: '1 rue' },
      pieces: { value: ['y', 'x'] },
    });
  });

  it('answers the first failing question with field form_responses.<id>, its reason and details.questions', () => {
    expect(failure(null)).toEqual({ field: 'form_responses.adresse', reason: 'required', questions: QUESTIONS });
    expect(failure({ adresse: { value: 'a' }, type: { value: 'c' } })).toMatchObject({ field: 'form_responses.type', reason: 'invalid_option' });
    expect(failure({ adresse: { value: 'a' }, pieces: { value: ['x', 'x'] } })).toMatchObject({ field: 'form_responses.pieces', reason: 'invalid_option' });
    expect(failure({ adresse: { value: 'a' }, autre: { value: 1 } })).toMatchObject({ field: 'form_responses.autre', reason: 'unknown_question' });
  });
});
