import { CreateAccountHandler } from './commands/create-account.handler';
import { CreateApiKeyHandler, RevokeApiKeyHandler } from './commands/api-key.handlers';
import { UpdateAccountHandler } from './commands/update-account.handler';
import { GetAccountHandler, GetAccountModeHandler, GetApiKeyHandler, ListSystemsHandler, ListTeamMembersHandler } from './queries/account.query-handlers';
import { ResolveApiKeyHandler } from './queries/resolve-api-key.handler';

/** Every command and query handler of the accounts context (registered by its adapters modules). */
export const ACCOUNTS_HANDLERS = [
  CreateAccountHandler,
  CreateApiKeyHandler,
  RevokeApiKeyHandler,
  UpdateAccountHandler,
  ResolveApiKeyHandler,
  GetApiKeyHandler,
  GetAccountHandler,
  ListSystemsHandler,
  ListTeamMembersHandler,
  GetAccountModeHandler,
];
