import { Module } from '@nestjs/common';
import { AccountActivityReadModel, OPERATOR_HANDLERS } from '@leadflow/operator-core';
import { TypeOrmAccountActivityReadModel } from './infrastructure/persistence/typeorm-account-activity.read-model';
import { AccountsAdminController } from './interface/http/accounts-admin.controller';
import { ContactsAdminController } from './interface/http/contacts-admin.controller';

/** The operator API (`/admin/v1`): orchestrates other contexts through their published commands. */
@Module({
  controllers: [AccountsAdminController, ContactsAdminController],
  providers: [...OPERATOR_HANDLERS, { provide: AccountActivityReadModel, useClass: TypeOrmAccountActivityReadModel }],
})
export class OperatorHttpModule {}
