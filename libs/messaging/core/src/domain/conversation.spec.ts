import { asAccountId } from '@leadflow/shared-kernel';
import type { ConversationSpec } from '@leadflow/messaging-contracts';
import { seedConversations } from './conversation';
import { InvalidConversationsError } from './messaging.errors';

const ACCOUNT = asAccountId('9a3f1c2e-4b5d-4e6f-8a7b-0c1d2e3f4a5b');
const now = new Date('2026-11-22T14:05:09.123Z');

describe('seedConversations (blueprint member conversations)', () => {
  it('timestamps messages strictly increasing in blueprint order, and the conversation last_message_at from its latest message', () => {
    const specs: ConversationSpec[] = [
      { agentSlug: 'sofia', source: 'website', contactEmail: 'Nadia@Example.com', messages: [
        { role: 'user', authorKind: 'visitor', content: 'Bonjour' },
        { role: 'assistant', authorKind: 'ai_agent', content: 'Bonjour![[pause]]Oui?' },
        { role: 'assistant', authorKind: 'sales_rep', authorName: 'Julie', content: 'Je prends le relais.' },
      ] },
      { agentSlug: 'leo', messages: [] },
    ];

    const [first, second] = seedConversations(ACCOUNT, specs, now);

    expect(first.messages.map((m) => m.createdAt.getTime() - now.getTime())).toEqual([1, 2, 3]);
    expect(first).toMatchObject({ agentSlug: 'sofia', agentIdentityId: null, source: 'website', contactEmail: 'nadia@example.com', createdAt: now, lastMessageAt: first.messages[2].createdAt });
    expect(first.messages[1].content).toBe('Bonjour![[pause]]Oui?'); // stored raw; markers are removed on read
    expect(first.messages[2].authorName).toBe('Julie');
    expect(second).toMatchObject({ createdAt: new Date(now.getTime() + 1), messages: [] });
    expect(second.lastMessageAt).toEqual(second.createdAt);
  });

  it('lists every breach with its path and writes nothing', () => {
    const error = (() => {
      try {
        seedConversations(ACCOUNT, [{ contactEmail: 'pas un courriel', agentSlug: '  ', messages: [{ role: 'robot' as never, authorKind: 'alien' as never, content: 'x'.repeat(20_001) }] }], now);
        return null;
      } catch (caught) {
        return caught as InvalidConversationsError;
      }
    })();

    expect(error).toBeInstanceOf(InvalidConversationsError);
    expect(error?.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'conversations[0].contact_email', reason: 'invalid_format' }),
        expect.objectContaining({ field: 'conversations[0].agent_slug', reason: 'invalid_value' }),
        expect.objectContaining({ field: 'conversations[0].messages[0].role', reason: 'invalid_value' }),
        expect.objectContaining({ field: 'conversations[0].messages[0].author_kind', reason: 'invalid_value' }),
        expect.objectContaining({ field: 'conversations[0].messages[0].content', reason: 'too_long' }),
      ]),
    );
  });
});
