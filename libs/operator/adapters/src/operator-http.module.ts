import { Module } from '@nestjs/common';
import { AccountsAdminController } from './interface/http/accounts-admin.controller';

/** The operator API (`/admin/v1`): orchestrates other contexts through their published commands. */
@Module({ controllers: [AccountsAdminController] })
export class OperatorHttpModule {}
