import { Injectable } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { AccountId, Actor, DomainError } from '@leadflow/shared-kernel';
import { GetAccountQuery, ListTeamMembersQuery } from '@leadflow/accounts-contracts';
import { ContactBookingProfile, FindOrCreateContactCommand, GetContactBookingProfileQuery } from '@leadflow/contacts-contracts';
import { OutgoingEmailRequest, QueueEmailCommand } from '@leadflow/messaging-contracts';
import { FindStageQuery } from '@leadflow/pipeline-contracts';
import {
  BookingDirectory,
  BookingGuest,
  BookingMailer,
  BookingTeamMember,
} from '@leadflow/bookings-core';

/** {@link BookingDirectory} through the accounts, contacts and pipeline contexts' published queries and commands. */
@Injectable()
export class CqrsBookingDirectory extends BookingDirectory {
  constructor(
    private readonly queries: QueryBus,
    private readonly commands: CommandBus,
  ) {
    super();
  }

  async teamMembers(accountId: AccountId): Promise<BookingTeamMember[]> {
    const members = await this.queries.execute(new ListTeamMembersQuery(accountId));
    return members.map((member) => ({
      id: member.id,
      email: member.email,
      name: [member.firstName, member.lastName].filter(Boolean).join(' ') || null,
      isActive: member.isActive,
    }));
  }

  async accountTimezone(accountId: AccountId): Promise<string> {
    const account = await this.queries.execute(new GetAccountQuery(accountId));
    return account?.timezone || 'America/Montreal';
  }

  contact(accountId: AccountId, contactId: string): Promise<ContactBookingProfile | null> {
    return this.queries.execute(new GetContactBookingProfileQuery(accountId, contactId));
  }

  async findOrCreateGuest(accountId: AccountId, guest: BookingGuest, actor: Actor): Promise<string> {
    const [firstName, ...rest] = guest.name.split(/\s+/);
    const found = await this.commands.execute(
      new FindOrCreateContactCommand(accountId, { email: guest.email, phone: guest.phone, firstName, lastName: rest.join(' ') || null }, actor, 'booking'),
    );
    return found.contact_id;
  }

  async stageIsOpen(accountId: AccountId, stageId: string): Promise<boolean | null> {
    const stage = await this.queries.execute(new FindStageQuery(accountId, stageId));
    if (!stage) return null;
    return !stage.isWon && !stage.isLost && !stage.isDisqualification;
  }
}

/**
 * {@link BookingMailer} through messaging's QueueEmailCommand (joins the caller's transaction). An account
 * without any sender gets no notification (`no_sender_configured` is thrown before anything is written):
 * the booking itself must not fail for it.
 */
@Injectable()
export class CqrsBookingMailer extends BookingMailer {
  constructor(private readonly commands: CommandBus) {
    super();
  }

  async queue(accountId: AccountId, email: OutgoingEmailRequest): Promise<boolean> {
    try {
      await this.commands.execute(new QueueEmailCommand(accountId, email));
      return true;
    } catch (error) {
      if (error instanceof DomainError && error.code === 'no_sender_configured') return false;
      throw error;
    }
  }
}
