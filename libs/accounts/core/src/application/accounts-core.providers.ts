import { CreateAccountHandler } from './commands/create-account/create-account.handler';
import { CreateApiKeyHandler } from './commands/create-api-key/create-api-key.handler';
import { RevokeApiKeyHandler } from './commands/revoke-api-key/revoke-api-key.handler';
import { UpdateAccountHandler } from './commands/update-account/update-account.handler';
import { GetAccountModeHandler } from './queries/get-account-mode/get-account-mode.handler';
import { GetAccountHandler } from './queries/get-account/get-account.handler';
import { GetApiKeyHandler } from './queries/get-api-key/get-api-key.handler';
import { ListSystemsHandler } from './queries/list-systems/list-systems.handler';
import { ListTeamMembersHandler } from './queries/list-team-members/list-team-members.handler';
import { ListAccountsHandler } from './queries/list-accounts/list-accounts.handler';
import { ListApiKeysHandler } from './queries/list-api-keys/list-api-keys.handler';
import { ResolveApiKeyHandler } from './queries/resolve-api-key/resolve-api-key.handler';

/**
 * Every command and query handler of the accounts context (the operator console's reads included),
 * declared once: AccountsCoreModule registers them for both the api and the worker.
 */
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
  ListAccountsHandler,
  ListApiKeysHandler,
];
