import type { CalendarQuestionSpec } from '@leadflow/bookings-contracts';
import { BookingValidationError } from './bookings.errors';

export const MAX_TEXT_ANSWER = 5000;

/**
 * Checks `form_responses` against the calendar's questions (public-api-v1 › POST /v1/bookings: "the
 * failing question's code with field `form_responses.<id>` and `details.questions`"). The first failure
 * in question order (then unknown ids in the given order) throws 400 `validation_error` with
 * `details: { field: 'form_responses.<id>', reason, questions }`, reason one of `required` (a required
 * question without a value), `invalid_type` (not `{ value }`, or a value of the wrong type),
 * `invalid_option` (not one of `options`), `too_long` (text above 5000 characters), `unknown_question`.
 * Returns the normalised answers `{ <id>: { value } }` (blank optional answers dropped).
 */
export function checkFormResponses(questions: readonly CalendarQuestionSpec[], responses: Record<string, unknown> | null | undefined): Record<string, { value: unknown }> {
  const given = responses ?? {};
  const fail = (id: string, reason: string, message: string): never => {
    throw new BookingValidationError(`form_responses.${id}`, reason, message, { questions });
  };
  const answers: Record<string, { value: unknown }> = {};
  for (const question of questions) {
    const entry = Object.prototype.hasOwnProperty.call(given, question.id) ? given[question.id] : undefined;
    if (entry !== undefined && entry !== null && (typeof entry !== 'object' || Array.isArray(entry) || !('value' in entry))) {
      fail(question.id, 'invalid_type', `form_responses.${question.id} must be an object { value }.`);
    }
    const value = (entry as { value?: unknown } | null | undefined)?.value;
    const blank = value === undefined || value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);
    if (blank) {
      if (question.required) fail(question.id, 'required', `"${question.label}" is required.`);
      continue;
    }
    switch (question.type) {
      case 'text':
        if (typeof value !== 'string') fail(question.id, 'invalid_type', `"${question.label}" expects text.`);
        if ((value as string).length > MAX_TEXT_ANSWER) fail(question.id, 'too_long', `"${question.label}" is at most ${MAX_TEXT_ANSWER} characters.`);
        answers[question.id] = { value: (value as string).trim() };
        break;
      case 'number':
        if (typeof value !== 'number' || !Number.isFinite(value)) fail(question.id, 'invalid_type', `"${question.label}" expects a number.`);
        answers[question.id] = { value };
        break;
      case 'select':
        if (typeof value !== 'string') fail(question.id, 'invalid_type', `"${question.label}" expects one option.`);
        if (!(question.options ?? []).includes(value as string)) fail(question.id, 'invalid_option', `"${question.label}" expects one of its options.`);
        answers[question.id] = { value };
        break;
      case 'multi_select': {
        if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) fail(question.id, 'invalid_type', `"${question.label}" expects a list of options.`);
        const list = value as string[];
        if (list.some((item) => !(question.options ?? []).includes(item)) || new Set(list).size !== list.length) {
          fail(question.id, 'invalid_option', `"${question.label}" expects distinct options from its list.`);
        }
        answers[question.id] = { value: list };
        break;
      }
    }
  }
  const known = new Set(questions.map((question) => question.id));
  for (const id of Object.keys(given)) {
    if (!known.has(id)) fail(id, 'unknown_question', `The calendar has no question "${id.slice(0, 64)}".`);
  }
  return answers;
}
