import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, Journal, newId, UnitOfWork, ValidationFailedError } from '@leadflow/shared-kernel';
import { CONTACT_EVENTS } from '@leadflow/contacts-contracts';
import { ContactNotFoundError } from '../../../domain/contacts.errors';
import { ContactsRepository } from '../../ports/contacts.repository.port';
import { ContactNoteRepository } from '../../ports/contact-note.repository.port';
import { integrationEvent } from '../../views';
import { AddNoteCommand, NoteView } from './add-note.command';

/** Longest note body (operator-api › Notes). */
export const NOTE_MAX_LENGTH = 10_000;

/**
 * `POST /v1/contacts/{id}/notes` (201): stores the note, a `note_added` timeline entry and a
 * `note_created` outbox event. 404 `not_found`; 400 `validation_error` field `body` (`required` when
 * blank, `too_long` over 10000 characters).
 */
@CommandHandler(AddNoteCommand)
export class AddNoteHandler implements ICommandHandler<AddNoteCommand> {
  constructor(
    private readonly contacts: ContactsRepository,
    private readonly notes: ContactNoteRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: Journal,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, contactId, body, actor }: AddNoteCommand): Promise<NoteView> {
    return this.unitOfWork.run(async () => {
      const state = await this.contacts.findContact(accountId, contactId);
      if (!state || state.mergedIntoId) throw new ContactNotFoundError();
      if (typeof body !== 'string' || body.trim().length === 0) {
        throw new ValidationFailedError([{ field: 'body', reason: 'required', message: 'body is required.' }]);
      }
      if (body.length > NOTE_MAX_LENGTH) {
        throw new ValidationFailedError([{ field: 'body', reason: 'too_long', message: `body must be at most ${NOTE_MAX_LENGTH} characters.` }]);
      }
      const note = { id: newId(), contactId: state.id, body, actor, createdAt: this.clock.now() };
      await this.notes.insertNote(accountId, note);
      await this.journal.record(
        accountId,
        [{ contactId: state.id, type: 'note_added', actor, data: { note_id: note.id } }],
        [integrationEvent(CONTACT_EVENTS.noteCreated, accountId, actor, note.createdAt, { contact_id: state.id, note_id: note.id, body })],
      );
      return { id: note.id, contact_id: state.id, body, created_at: note.createdAt.toISOString() };
    });
  }
}
