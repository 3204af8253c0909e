import { Module } from '@nestjs/common';
import { AccountActivityReadModel, OPERATOR_HANDLERS } from '@leadflow/operator-core';
import { TypeOrmAccountActivityReadModel } from './infrastructure/persistence/typeorm-account-activity.read-model';

/**
 * The operator context's one core module: its handlers ({@link OPERATOR_HANDLERS}, listed once in core) and
 * port bindings, imported by OperatorHttpModule (the operator context runs nothing in the worker, so it
 * has no jobs module).
 */
@Module({
  providers: [...OPERATOR_HANDLERS, { provide: AccountActivityReadModel, useClass: TypeOrmAccountActivityReadModel }],
})
export class OperatorCoreModule {}
