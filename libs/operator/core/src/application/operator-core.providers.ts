import { ListAccountActivityHandler } from './queries/list-account-activity/list-account-activity.handler';
import { ListAccountEmailsHandler } from './queries/list-account-emails/list-account-emails.handler';

/** Every command and query handler of the operator context, declared once: OperatorCoreModule registers them. */
export const OPERATOR_HANDLERS = [ListAccountActivityHandler, ListAccountEmailsHandler];
