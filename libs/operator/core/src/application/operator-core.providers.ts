import { ListAccountActivityHandler } from './queries/list-account-activity/list-account-activity.handler';

/** Every command and query handler of the operator context (registered by its adapters module). */
export const OPERATOR_HANDLERS = [ListAccountActivityHandler];
