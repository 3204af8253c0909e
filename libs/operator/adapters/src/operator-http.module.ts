import { Module } from '@nestjs/common';
import { AccountsAdminController } from './interface/http/accounts-admin.controller';
import { SandboxAdminController } from './interface/http/sandbox-admin.controller';
import { PlatformSandboxData } from './infrastructure/persistence/platform-sandbox-data';
import { ContactsAdminController } from './interface/http/contacts-admin.controller';
import { EmailsAdminController } from './interface/http/emails-admin.controller';
import { QuotesAdminController } from './interface/http/quotes-admin.controller';
import { BookingsAdminController, CalendarsAdminController } from './interface/http/bookings-admin.controller';
import { WebhookDeliveriesAdminController } from './interface/http/webhook-deliveries-admin.controller';
import { ConsoleController } from './interface/console/console.controller';
import { ConsoleExceptionFilter } from './interface/console/console-exception.filter';
import { ConsoleSessionStore } from './interface/console/console-session.store';
import { OperatorCoreModule } from './operator-core.module';

/**
 * The operator API (`/admin/v1`): orchestrates other contexts through their published commands; and the
 * operator console (`/console`, server-rendered pages over the same queries and commands).
 */
@Module({
  imports: [OperatorCoreModule],
  controllers: [
    AccountsAdminController,
    SandboxAdminController,
    ContactsAdminController,
    EmailsAdminController,
    QuotesAdminController,
    BookingsAdminController,
    CalendarsAdminController,
    WebhookDeliveriesAdminController,
    ConsoleController,
  ],
  providers: [ConsoleSessionStore, ConsoleExceptionFilter, PlatformSandboxData],
})
export class OperatorHttpModule {}
