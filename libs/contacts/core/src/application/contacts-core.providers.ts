import { AddNoteHandler } from './commands/add-note/add-note.handler';
import { ArchiveContactHandler } from './commands/archive-contact/archive-contact.handler';
import { AttachTagsHandler } from './commands/attach-tags/attach-tags.handler';
import { CaptureLeadHandler } from './commands/capture-lead/capture-lead.handler';
import { CreateContactHandler } from './commands/create-contact/create-contact.handler';
import { CreateTagHandler } from './commands/create-tag/create-tag.handler';
import { DefineCustomFieldsHandler } from './commands/define-custom-fields/define-custom-fields.handler';
import { DeleteContactHandler } from './commands/delete-contact/delete-contact.handler';
import { DetachTagHandler } from './commands/detach-tag/detach-tag.handler';
import { DisqualifyContactHandler } from './commands/disqualify-contact/disqualify-contact.handler';
import { EnsureCampaignTagHandler } from './commands/ensure-campaign-tag/ensure-campaign-tag.handler';
import { FindOrCreateContactHandler } from './commands/find-or-create-contact/find-or-create-contact.handler';
import { HandOffSmsFollowUpHandler } from './commands/hand-off-sms-follow-up/hand-off-sms-follow-up.handler';
import { MergeContactHandler } from './commands/merge-contact/merge-contact.handler';
import { MergeContactsHandler } from './commands/merge-contacts/merge-contacts.handler';
import { MoveContactToStageHandler } from './commands/move-contact-to-stage/move-contact-to-stage.handler';
import { RecomputeLeadScoreHandler } from './commands/recompute-lead-score/recompute-lead-score.handler';
import { RecordPresuasionSubmissionHandler } from './commands/record-presuasion-submission/record-presuasion-submission.handler';
import { RemoveContactFromPipelineHandler } from './commands/remove-contact-from-pipeline/remove-contact-from-pipeline.handler';
import { ResolveEventContactHandler } from './commands/resolve-event-contact/resolve-event-contact.handler';
import { ReviewDueLeadScoresHandler } from './commands/review-due-lead-scores/review-due-lead-scores.handler';
import { SetEmailUnsubscribedHandler } from './commands/set-email-unsubscribed/set-email-unsubscribed.handler';
import { TagContactByNameHandler } from './commands/tag-contact-by-name/tag-contact-by-name.handler';
import { UnarchiveContactHandler } from './commands/unarchive-contact/unarchive-contact.handler';
import { UnmergeContactHandler } from './commands/unmerge-contact/unmerge-contact.handler';
import { UntagContactByNameHandler } from './commands/untag-contact-by-name/untag-contact-by-name.handler';
import { UpdateContactHandler } from './commands/update-contact/update-contact.handler';
import { UpsertContactsHandler } from './commands/upsert-contacts/upsert-contacts.handler';
import { FindContactByEmailHandler } from './queries/find-contact-by-email/find-contact-by-email.handler';
import { GetContactHandler } from './queries/get-contact/get-contact.handler';
import { GetContactBookingProfileHandler } from './queries/get-contact-booking-profile/get-contact-booking-profile.handler';
import { GetContactCardHandler } from './queries/get-contact-card/get-contact-card.handler';
import { GetContactTimelineHandler } from './queries/get-contact-timeline/get-contact-timeline.handler';
import { GetPresuasionSubmissionHandler } from './queries/get-presuasion-submission/get-presuasion-submission.handler';
import { ListContactsHandler } from './queries/list-contacts/list-contacts.handler';
import { ListPresuasionSubmissionsHandler } from './queries/list-presuasion-submissions/list-presuasion-submissions.handler';
import { ListTagsHandler } from './queries/list-tags/list-tags.handler';
import { ExportContactsConfigurationHandler } from './queries/export-contacts-configuration/export-contacts-configuration.handler';
import { ProvisionTagsHandler } from './commands/provision-tags/provision-tags.handler';
import { ResetContactsDataHandler } from './commands/reset-contacts-data/reset-contacts-data.handler';

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
  ExportContactsConfigurationHandler,
  ProvisionTagsHandler,
  ResetContactsDataHandler,
];
