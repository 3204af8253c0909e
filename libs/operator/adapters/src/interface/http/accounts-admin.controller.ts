import { Body, Controller, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CreateAccountCommand, CreateApiKeyCommand, IssuedApiKey, RevokeApiKeyCommand } from '@leadflow/accounts-contracts';
import { asAccountId } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import { AccountBlueprintDto, ApiKeySpecDto } from './dto/account-blueprint.dto';
import { toApiKeySpec } from './dto/api-key-spec.mapper';

/**
 * Operator API (operator-api › Operator API), behind `ADMIN_TOKEN`: account blueprints and keys.
 * The whole blueprint is created in one transaction: any refusal leaves nothing behind.
 */
@Controller('admin/v1/accounts')
export class AccountsAdminController {
  constructor(
    private readonly commands: CommandBus,
    private readonly transactions: TransactionHost,
  ) {}

  @Post()
  async provision(@Body() blueprint: AccountBlueprintDto): Promise<Record<string, unknown>> {
    return this.transactions.run(async () => {
      const created = await this.commands.execute(
        new CreateAccountCommand({
          name: blueprint.name,
          timezone: blueprint.timezone,
          features: blueprint.features,
          apiTermsAccepted: blueprint.api_terms_accepted,
          quoteDefaults: blueprint.quote_defaults,
          systems: blueprint.systems?.map((s) => ({ name: s.name, isMain: s.is_main, isActive: s.is_active })),
          teamMembers: blueprint.team_members?.map((m) => ({
            email: m.email,
            firstName: m.first_name,
            lastName: m.last_name,
            isActive: m.is_active,
            isSalesRep: m.is_sales_rep,
            canDeleteProspects: m.can_delete_prospects,
          })),
          apiKeys: blueprint.api_keys?.map(toApiKeySpec),
        }),
      );
      return {
        account_id: created.accountId,
        api_keys: created.apiKeys,
        systems: created.systems,
        team_members: created.teamMembers,
      };
    });
  }

  @Post(':account_id/api-keys')
  createKey(
    @Param('account_id', new ParseUUIDPipe()) accountId: string,
    @Body() spec: ApiKeySpecDto,
  ): Promise<IssuedApiKey> {
    return this.commands.execute(new CreateApiKeyCommand(asAccountId(accountId), toApiKeySpec(spec)));
  }

  @Post(':account_id/api-keys/:key_id/revoke')
  @HttpCode(200)
  async revokeKey(
    @Param('account_id', new ParseUUIDPipe()) accountId: string,
    @Param('key_id', new ParseUUIDPipe()) keyId: string,
  ): Promise<{ data: { id: string; revoked: true } }> {
    await this.commands.execute(new RevokeApiKeyCommand(asAccountId(accountId), keyId));
    return { data: { id: keyId, revoked: true } };
  }
}
