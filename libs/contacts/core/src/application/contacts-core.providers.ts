import { AddNoteHandler } from './commands/add-note.handler';
import { CaptureLeadHandler } from './commands/capture-lead/capture-lead.handler';
import { HandOffSmsFollowUpHandler } from './commands/hand-off-sms-follow-up/hand-off-sms-follow-up.handler';
import {
  ArchiveContactHandler,
  DisqualifyContactHandler,
  MergeContactHandler,
  UnarchiveContactHandler,
  UnmergeContactHandler,
} from './commands/contact-lifecycle.handlers';
import { MoveContactToStageHandler, RemoveContactFromPipelineHandler } from './commands/contact-stage.handlers';
import { AttachTagsHandler, DetachTagHandler } from './commands/contact-tags.handlers';
import { CreateContactHandler } from './commands/create-contact.handler';
import { DefineCustomFieldsHandler } from './commands/define-custom-fields.handler';
import { DeleteContactHandler } from './commands/delete-contact.handler';
import { FindOrCreateContactHandler, GetContactCardHandler, SetEmailUnsubscribedHandler } from './commands/find-or-create-contact.handler';
import { CreateTagHandler, EnsureCampaignTagHandler } from './commands/tags.handlers';
import { UpdateContactHandler } from './commands/update-contact.handler';
import { UpsertContactsHandler } from './commands/upsert-contacts/upsert-contacts.handler';
import { MergeContactsHandler } from './commands/merge-contacts/merge-contacts.handler';
import { TagContactByNameHandler, UntagContactByNameHandler } from './commands/tag-contact-by-name.handler';
import { ResolveEventContactHandler } from './commands/resolve-event-contact/resolve-event-contact.handler';
import { GetContactBookingProfileHandler } from './queries/get-contact-booking-profile.handler';
import { GetContactHandler, GetContactTimelineHandler, ListContactsHandler, ListTagsHandler } from './queries/contact.query-handlers';
import { FindContactByEmailHandler } from './queries/find-contact-by-email.handler';
import { RecordPresuasionSubmissionHandler } from './commands/record-presuasion-submission/record-presuasion-submission.handler';
import { GetPresuasionSubmissionHandler } from './queries/get-presuasion-submission/get-presuasion-submission.handler';
import { ListPresuasionSubmissionsHandler } from './queries/list-presuasion-submissions/list-presuasion-submissions.handler';
import { RecomputeLeadScoreHandler } from './commands/lead-score/recompute-lead-score.handler';
import { ReviewDueLeadScoresHandler } from './commands/lead-score/review-due-lead-scores.handler';

/**
 * Every command and query handler of the contacts context, declared once; the adapters' core module
 * (ContactsCoreModule) registers them all, with the port bindings, for both the api and the worker.
 */
export const CONTACTS_HANDLERS = [
  CreateContactHandler,
  UpdateContactHandler,
  UpsertContactsHandler,
  MergeContactsHandler,
  DeleteContactHandler,
  AttachTagsHandler,
  DetachTagHandler,
  AddNoteHandler,
  CreateTagHandler,
  EnsureCampaignTagHandler,
  DefineCustomFieldsHandler,
  ArchiveContactHandler,
  UnarchiveContactHandler,
  MergeContactHandler,
  UnmergeContactHandler,
  DisqualifyContactHandler,
  FindOrCreateContactHandler,
  SetEmailUnsubscribedHandler,
  GetContactCardHandler,
  GetContactBookingProfileHandler,
  FindContactByEmailHandler,
  MoveContactToStageHandler,
  RemoveContactFromPipelineHandler,
  TagContactByNameHandler,
  UntagContactByNameHandler,
  CaptureLeadHandler,
  ResolveEventContactHandler,
  ListContactsHandler,
  GetContactHandler,
  GetContactTimelineHandler,
  ListTagsHandler,
  RecordPresuasionSubmissionHandler,
  GetPresuasionSubmissionHandler,
  ListPresuasionSubmissionsHandler,
  HandOffSmsFollowUpHandler,
  RecomputeLeadScoreHandler,
  ReviewDueLeadScoresHandler,
];
