import type { PresuasionSubmissionView } from '@leadflow/contacts-contracts';
import type { PresuasionSubmissionState } from '../domain/presuasion/presuasion-submission';

/** The read shape of a submission (contacts-contracts › PresuasionSubmissionView), also its webhook payload. */
export function toPresuasionSubmissionView(state: PresuasionSubmissionState): PresuasionSubmissionView {
  return {
    id: state.id,
    tool: { slug: state.toolSlug, name: state.toolName },
    form_id: state.formId,
    contact_id: state.contactId,
    contact_was_new: state.contactWasNew,
    tag_id: state.tagId,
    activity_id: state.activityId,
    answers: state.answers.map((item) => ({ question_id: item.questionId, question: item.question, answer: item.answer, score: item.score })),
    score: state.score,
    outcome: state.outcome,
    person: {
      email: state.person.email,
      phone: state.person.phone,
      first_name: state.person.firstName,
      last_name: state.person.lastName,
      language: state.person.language,
    },
    consent: { ...state.consent },
    attribution: { utm: { ...state.attribution.utm }, gclid: state.attribution.gclid, page_url: state.attribution.pageUrl, referrer: state.attribution.referrer },
    submitted_at: state.submittedAt.toISOString(),
    created_at: state.createdAt.toISOString(),
  };
}
