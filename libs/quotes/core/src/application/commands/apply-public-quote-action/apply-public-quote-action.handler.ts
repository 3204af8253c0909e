import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ApplyPublicQuoteActionCommand } from './apply-public-quote-action.command';
import { PublicQuote } from '../../queries/get-public-quote/public-quote';
import { PublicPageHandler } from '../../public-page.base';

/** `POST /q/{token}/sign` and `/decline`. */
@CommandHandler(ApplyPublicQuoteActionCommand)
export class ApplyPublicQuoteActionHandler extends PublicPageHandler implements ICommandHandler<ApplyPublicQuoteActionCommand> {
  execute({ token, action, actor }: ApplyPublicQuoteActionCommand): Promise<PublicQuote | null> {
    return this.run(token, action, actor);
  }
}
