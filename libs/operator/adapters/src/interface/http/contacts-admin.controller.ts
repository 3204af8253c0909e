import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { IsDefined, IsUUID } from 'class-validator';
import {
  ArchiveContactCommand,
  ContactLifecycleView,
  DisqualifyContactCommand,
  MergeContactCommand,
  UnarchiveContactCommand,
  UnmergeContactCommand,
} from '@leadflow/contacts-contracts';
import { Actor, asAccountId } from '@leadflow/shared-kernel';
import { CurrentOperatorActor, TransactionHost } from '@leadflow/shared-platform';
import { accountIdParam, UuidOr404Pipe } from './uuid-or-404.pipe';

const contactIdParam = () => new UuidOr404Pipe('contact', 'No such contact.');

/** Body of the merge action. */
export class MergeContactDto {
  @IsDefined() @IsUUID() into_contact_id!: string;
}

/**
 * Contact lifecycle driven by the operator (operator-api › Further operator endpoints):
 * `POST /admin/v1/accounts/{account_id}/contacts/{contact_id}/{archive|unarchive|merge|unmerge|disqualify}`,
 * each 200 `{ data: contact }`: the contact of the path with `merged_into_contact_id`. 404 `not_found`
 * for a missing, merged or other account's contact (or account).
 */
@Controller('admin/v1/accounts/:account_id/contacts/:contact_id')
export class ContactsAdminController {
  constructor(
    private readonly commands: CommandBus,
    private readonly transactions: TransactionHost,
  ) {}

  /** Idempotent. */
  @Post('archive')
  @HttpCode(200)
  archive(
    @Param('account_id', accountIdParam()) accountId: string,
    @Param('contact_id', contactIdParam()) contactId: string,
    @CurrentOperatorActor() actor: Actor,
  ) {
    return this.run(new ArchiveContactCommand(asAccountId(accountId), contactId, actor));
  }

  /** Idempotent. */
  @Post('unarchive')
  @HttpCode(200)
  unarchive(
    @Param('account_id', accountIdParam()) accountId: string,
    @Param('contact_id', contactIdParam()) contactId: string,
    @CurrentOperatorActor() actor: Actor,
  ) {
    return this.run(new UnarchiveContactCommand(asAccountId(accountId), contactId, actor));
  }

  /** Body `{ into_contact_id }`; the contact disappears from lists, counts and public reads. */
  @Post('merge')
  @HttpCode(200)
  merge(
    @Param('account_id', accountIdParam()) accountId: string,
    @Param('contact_id', contactIdParam()) contactId: string,
    @Body() body: MergeContactDto,
    @CurrentOperatorActor() actor: Actor,
  ) {
    return this.run(new MergeContactCommand(asAccountId(accountId), contactId, body.into_contact_id, actor));
  }

  /** The absorbed id works again; a contact that is not merged is answered unchanged. */
  @Post('unmerge')
  @HttpCode(200)
  unmerge(
    @Param('account_id', accountIdParam()) accountId: string,
    @Param('contact_id', contactIdParam()) contactId: string,
    @CurrentOperatorActor() actor: Actor,
  ) {
    return this.run(new UnmergeContactCommand(asAccountId(accountId), contactId, actor));
  }

  /** Idempotent. */
  @Post('disqualify')
  @HttpCode(200)
  disqualify(
    @Param('account_id', accountIdParam()) accountId: string,
    @Param('contact_id', contactIdParam()) contactId: string,
    @CurrentOperatorActor() actor: Actor,
  ) {
    return this.run(new DisqualifyContactCommand(asAccountId(accountId), contactId, actor));
  }

  private async run(
    command: ArchiveContactCommand | UnarchiveContactCommand | MergeContactCommand | UnmergeContactCommand | DisqualifyContactCommand,
  ): Promise<{ data: ContactLifecycleView }> {
    return { data: await this.transactions.run(() => this.commands.execute(command)) };
  }
}
