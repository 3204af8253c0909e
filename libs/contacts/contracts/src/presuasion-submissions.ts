/**
 * Presuasion submissions (public-api-v1 › Presuasion submissions: "A tag group for form submissions
 * from pre-suasion tools exists"): what a quiz, calculator or pre-qualification form posted about one
 * person, kept as a record of its own and linked to the contact it resolved to.
 */

/** Outbox and webhook event of a recorded submission (webhooks-contracts › WEBHOOK_EVENTS); its payload is the {@link PresuasionSubmissionView}. */
export const PRESUASION_SUBMISSION_CREATED_EVENT = 'presuasion_submission_created';

/** Category of the presuasion tag group: one tag per tool, created on the fly. */
export const PRESUASION_TAG_CATEGORY = 'presuasion';
export const PRESUASION_SYSTEM_KEY_PREFIX = 'presuasion:';

/** `presuasion:<tool slug>`: the system key that makes a tool's tag unique (its name may change or collide). */
export function presuasionSystemKey(toolSlug: string): string {
  return `${PRESUASION_SYSTEM_KEY_PREFIX}${toolSlug}`;
}

/** A question's answer as the tool sent it: text, a number, a yes/no, several options, or null (skipped). */
export type PresuasionAnswerValue = string | number | boolean | string[] | null;

/** One question/answer pair, in the order the person saw them. */
export interface PresuasionAnswerView {
  question_id: string | null;
  question: string;
  answer: PresuasionAnswerValue;
  score: number | null;
}

/** A consent as recorded: given (true), refused (false) or not asked (null). */
export interface PresuasionConsentView {
  sms: boolean | null;
  email: boolean | null;
  ads: boolean | null;
}

/** Read shape of a submission (`GET /v1/presuasion/submissions/{id}`, the list, and the webhook payload). */
export interface PresuasionSubmissionView {
  id: string;
  tool: { slug: string; name: string };
  form_id: string | null;
  contact_id: string;
  /** True when the submission created the contact. */
  contact_was_new: boolean;
  /** The tool's tag in the `presuasion` tag group, attached to the contact. */
  tag_id: string;
  /** The submission's activity-log entry (`presuasion_submission_created`). */
  activity_id: string;
  answers: PresuasionAnswerView[];
  score: number | null;
  outcome: string | null;
  /** The person as sent (email lowercase, phone E.164). */
  person: { email: string | null; phone: string | null; first_name: string | null; last_name: string | null; language: string | null };
  consent: PresuasionConsentView;
  attribution: {
    utm: Record<string, string>;
    /** Null when `consent.ads` is false (never kept without ad consent). */
    gclid: string | null;
    page_url: string | null;
    referrer: string | null;
  };
  submitted_at: string;
  created_at: string;
}
