import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ArchiveContactCommand, ContactLifecycleView } from '@leadflow/contacts-contracts';
import { LifecycleHandler } from '../../contact-lifecycle/lifecycle-handler';

/** Operator archive: idempotent; archived contacts leave stage counts and keep their deal value. */
@CommandHandler(ArchiveContactCommand)
export class ArchiveContactHandler extends LifecycleHandler implements ICommandHandler<ArchiveContactCommand> {
  execute({ accountId, contactId, actor }: ArchiveContactCommand): Promise<ContactLifecycleView> {
    return this.transition(accountId, contactId, actor, 'archive');
  }
}
