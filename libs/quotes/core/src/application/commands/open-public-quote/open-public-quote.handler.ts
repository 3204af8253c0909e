import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@leadflow/shared-kernel';
import { OpenPublicQuoteCommand } from './open-public-quote.command';
import { PublicQuote } from '../../queries/get-public-quote/public-quote';
import { PublicPageHandler } from '../../public-page.base';

/** `GET /q/{token}`: a sent quote becomes `viewed`; other statuses are shown as they are (a cancelled one says so). */
@CommandHandler(OpenPublicQuoteCommand)
export class OpenPublicQuoteHandler extends PublicPageHandler implements ICommandHandler<OpenPublicQuoteCommand> {
  async execute({ token, actor }: OpenPublicQuoteCommand): Promise<PublicQuote | null> {
    try {
      return await this.run(token, 'view', actor);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'quote_cancelled') return this.show(token);
      throw error;
    }
  }
}
