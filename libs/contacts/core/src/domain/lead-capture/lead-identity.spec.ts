import { leadIdentityLookups, matchLeadIdentity } from './lead-identity';

describe('lead identity (public-api-v1 › Endpoints › Leads rule 1)', () => {
  it('looks up the email first, then the phone, each only when there is one', () => {
    expect(leadIdentityLookups('a@b.ca', '+15145550101')).toEqual([
      { kind: 'email', value: 'a@b.ca' },
      { kind: 'phone', value: '+15145550101' },
    ]);
    expect(leadIdentityLookups(null, '+15145550101')).toEqual([{ kind: 'phone', value: '+15145550101' }]);
    expect(leadIdentityLookups('a@b.ca', null)).toEqual([{ kind: 'email', value: 'a@b.ca' }]);
    expect(leadIdentityLookups(null, null)).toEqual([]);
  });

  it('a new person: nobody holds either identity', () => {
    expect(matchLeadIdentity([])).toEqual({ contactId: null, holders: { email: 'none', phone: 'none' } });
  });

  it('resolved by email first; the phone of another contact is held by `other` (email wins, nothing moves)', () => {
    const match = matchLeadIdentity([
      { kind: 'phone', survivorId: 'p' },
      { kind: 'email', survivorId: 'e' },
    ]);
    expect(match).toEqual({ contactId: 'e', holders: { email: 'self', phone: 'other' } });
  });

  it('resolved by phone when no contact holds the email', () => {
    expect(matchLeadIdentity([{ kind: 'phone', survivorId: 'p' }])).toEqual({ contactId: 'p', holders: { email: 'none', phone: 'self' } });
  });

  it('both identities on one contact: both `self`', () => {
    expect(matchLeadIdentity([{ kind: 'email', survivorId: 'c' }, { kind: 'phone', survivorId: 'c' }]).holders).toEqual({ email: 'self', phone: 'self' });
  });
});
