import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ContactLifecycleView, DisqualifyContactCommand } from '@leadflow/contacts-contracts';
import { LifecycleHandler } from '../../contact-lifecycle/lifecycle-handler';

/** Operator disqualify: idempotent; `disqualified_at` is read by the pipeline rules (409 `lead_disqualified`). */
@CommandHandler(DisqualifyContactCommand)
export class DisqualifyContactHandler extends LifecycleHandler implements ICommandHandler<DisqualifyContactCommand> {
  execute({ accountId, contactId, actor }: DisqualifyContactCommand): Promise<ContactLifecycleView> {
    return this.transition(accountId, contactId, actor, 'disqualify');
  }
}
