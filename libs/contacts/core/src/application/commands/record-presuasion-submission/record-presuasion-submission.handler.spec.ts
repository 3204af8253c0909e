import { Actor, asAccountId, DomainError, FixedClock, newId } from '@leadflow/shared-kernel';
import type { SystemView } from '@leadflow/accounts-contracts';
import { InMemoryJournal, InMemoryUnitOfWork } from '@leadflow/shared-testing/fakes';
import type { PresuasionSubmissionInput } from '../../../domain/presuasion/presuasion-submission';
import { inMemoryContactPorts, InMemoryContactsStore } from '../../../testing/in-memory-contacts';
import { InMemoryLeadCaptureSettings } from '../../../testing/in-memory-lead-capture-settings';
import { InMemoryPresuasionSubmissions } from '../../../testing/in-memory-presuasion-submissions';
import { RecordPresuasionSubmissionCommand } from './record-presuasion-submission.command';
import { RecordPresuasionSubmissionHandler } from './record-presuasion-submission.handler';

const ACCOUNT = asAccountId('a0000000-0000-4000-8000-000000000001');
const ACTOR: Actor = { type: 'api_key', id: 'k1', name: 'capture', via: 'api_key' };
const MAIN = 'b0000000-0000-4000-8000-000000000001';
const SYSTEMS: SystemView[] = [{ id: MAIN, name: 'Main', isMain: true, isActive: true }];

function setup(systems: SystemView[] = SYSTEMS) {
  const store = new InMemoryContactsStore();
  const { contacts, identities, tags, contactTags } = inMemoryContactPorts(store);
  const submissions = new InMemoryPresuasionSubmissions();
  const clock = new FixedClock(new Date('2027-03-10T15:00:00.000Z'));
  const settings = new InMemoryLeadCaptureSettings(store, { systems, pipelines: [], stages: [], teamMembers: [] });
  const handler = new RecordPresuasionSubmissionHandler(contacts, identities, tags, contactTags, submissions, new InMemoryUnitOfWork(store), new InMemoryJournal(store), settings, clock);
  const submit = (input: PresuasionSubmissionInput, terms = true) => handler.execute(new RecordPresuasionSubmissionCommand(ACCOUNT, input, ACTOR, terms));
  return { store, contacts, submissions, clock, submit };
}

const QUIZ = (person: PresuasionSubmissionInput['person'], tool = { slug: 'quiz', name: 'Quiz' }): PresuasionSubmissionInput => ({
  tool,
  answers: [{ question: 'Projet ?', answer: 'Toiture' }],
  person,
});

async function refusal(work: Promise<unknown>): Promise<DomainError> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(error)}`);
  return error;
}

describe('RecordPresuasionSubmissionHandler', () => {
  it('a new person: contact in the main System, tool tag created and attached, submission, activity entry and outbox events', async () => {
    const { store, submissions, submit } = setup();
    const view = await submit(QUIZ({ email: 'Nadia@Example.com', phone: '514 555-0142' }));
    expect(view.contact_was_new).toBe(true);
    expect(store.contacts).toEqual([expect.objectContaining({ id: view.contact_id, email: 'nadia@example.com', phone: '+15145550142', systemId: MAIN, source: 'api', sourceLabel: 'Quiz' })]);
    expect(store.tags).toEqual([expect.objectContaining({ id: view.tag_id, name: 'Quiz', category: 'presuasion', systemKey: 'presuasion:quiz' })]);
    expect(store.contactTags).toEqual([expect.objectContaining({ contactId: view.contact_id, tagId: view.tag_id })]);
    expect(submissions.rows.map((row) => row.id)).toEqual([view.id]);
    expect(store.entries).toEqual([expect.objectContaining({ id: view.activity_id, type: 'presuasion_submission_created', contactId: view.contact_id, data: view })]);
    expect(store.events.map((event) => event.type)).toEqual(['contact_created', 'presuasion_submission_created']);
    expect(store.events[1].payload).toEqual(view);
  });

  it('an existing person is resolved by email first and enriched; the tool tag is reused by its slug', async () => {
    const { store, submit } = setup();
    const first = await submit(QUIZ({ email: 'nadia@example.com' }));
    const second = await submit(QUIZ({ email: 'NADIA@example.com', phone: '514 555-0142', lastName: 'Roy' }, { slug: 'QUIZ', name: 'Autre nom' }));
    expect(second).toMatchObject({ contact_id: first.contact_id, contact_was_new: false, tag_id: first.tag_id });
    expect(store.contacts).toHaveLength(1);
    expect(store.contacts[0]).toMatchObject({ phone: '+15145550142', lastName: 'Roy' });
    expect(store.tags).toHaveLength(1);
    expect(store.events.map((event) => event.type)).toEqual(['contact_created', 'presuasion_submission_created', 'lead_updated', 'presuasion_submission_created']);
  });

  it('a concurrent request creating the same new person: the attempt rolls back and starts over on the winner (one contact)', async () => {
    const { store, contacts, submit, clock } = setup();
    const winner = newId();
    let injected = false;
    contacts.beforeIdentityInsert = () => {
      if (injected) return;
      injected = true;
      store.commitConcurrently((concurrent) => {
        concurrent.contacts.push({
          id: winner,
          accountId: ACCOUNT,
          firstName: null,
          lastName: null,
          email: 'nadia@example.com',
          phone: null,
          company: null,
          dealValueCents: null,
          customFields: {},
          isPriority: false,
          notes: null,
          source: 'api',
          systemId: MAIN,
          pipelineId: null,
          stageId: null,
          salesRepId: null,
          attribution: {},
          addressParts: { address: null, postalCode: null, addressPlaceId: null, street: null, city: null, sector: null, province: null, country: null },
          sourceLabel: null,
          expectedCloseDate: null,
          archivedAt: null,
          mergedIntoId: null,
          mergedAt: null,
          disqualifiedAt: null,
          score: 0,
          scoreReviewAt: null,
          createdAt: clock.now(),
          updatedAt: clock.now(),
        });
        concurrent.identities.push({ accountId: ACCOUNT, contactId: winner, kind: 'email', value: 'nadia@example.com', isPrimary: true });
      });
    };
    const view = await submit(QUIZ({ email: 'nadia@example.com' }));
    expect(view).toMatchObject({ contact_id: winner, contact_was_new: false });
    expect(store.contacts.map((contact) => contact.id)).toEqual([winner]);
  });

  it('403 terms_acceptance_required before anything; 400 validation_error for the body; nothing written', async () => {
    const { store, submissions, submit } = setup();
    expect((await refusal(submit(QUIZ({ email: 'a@b.ca' }), false))).code).toBe('terms_acceptance_required');
    expect((await refusal(submit(QUIZ({ firstName: 'Sans' })))).code).toBe('validation_error');
    expect(store.contacts).toEqual([]);
    expect(submissions.rows).toEqual([]);
    expect(store.events).toEqual([]);
  });

  it('422 system_not_found when the account has no System', async () => {
    const { submit } = setup([]);
    expect((await refusal(submit(QUIZ({ email: 'a@b.ca' })))).code).toBe('system_not_found');
  });
});
