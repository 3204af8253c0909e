import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ContactLifecycleView, UnarchiveContactCommand } from '@leadflow/contacts-contracts';
import { LifecycleHandler } from '../../contact-lifecycle/lifecycle-handler';

/** Operator unarchive: idempotent. */
@CommandHandler(UnarchiveContactCommand)
export class UnarchiveContactHandler extends LifecycleHandler implements ICommandHandler<UnarchiveContactCommand> {
  execute({ accountId, contactId, actor }: UnarchiveContactCommand): Promise<ContactLifecycleView> {
    return this.transition(accountId, contactId, actor, 'unarchive');
  }
}
