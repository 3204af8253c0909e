import { stripPacingMarkers } from './pacing-markers';

describe('stripPacingMarkers (operator-api › Conversation pacing markers)', () => {
  it('joins the bubbles a [[pause]] separated with one blank line: "A[[pause]]B" reads "A\\n\\nB"', () => {
    expect(stripPacingMarkers('A[[pause]]B')).toBe('A\n\nB');
  });

  it('drops [[pause:<ms>]] markers the same way', () => {
    expect(stripPacingMarkers('Bonjour![[pause:1200]]Comment puis-je vous aider?')).toBe('Bonjour!\n\nComment puis-je vous aider?');
  });

  it('trims each bubble and the ends, so spaces around a marker leave exactly one blank line', () => {
    expect(stripPacingMarkers('  A \n[[pause]]\n B  ')).toBe('A\n\nB');
  });

  it('reads consecutive markers as one separation (no empty paragraph)', () => {
    expect(stripPacingMarkers('A[[pause]][[pause:300]]B[[pause]]C')).toBe('A\n\nB\n\nC');
  });

  it('reads a message of markers alone as an empty string', () => {
    expect(stripPacingMarkers('[[pause]]')).toBe('');
    expect(stripPacingMarkers(' [[pause:500]] [[pause]] ')).toBe('');
  });

  it('drops leading and trailing markers', () => {
    expect(stripPacingMarkers('[[pause]]A[[pause:10]]')).toBe('A');
  });

  it('keeps what only looks like a marker: other case, no digits, other names', () => {
    expect(stripPacingMarkers('A[[PAUSE]]B')).toBe('A[[PAUSE]]B');
    expect(stripPacingMarkers('A[[pause:abc]]B')).toBe('A[[pause:abc]]B');
    expect(stripPacingMarkers('A[[pause:]]B')).toBe('A[[pause:]]B');
    expect(stripPacingMarkers('A[pause]B')).toBe('A[pause]B');
  });

  it('leaves text without markers as it is, ends trimmed, inner blank lines kept', () => {
    expect(stripPacingMarkers('  Ligne 1\n\nLigne 2  ')).toBe('Ligne 1\n\nLigne 2');
    expect(stripPacingMarkers('')).toBe('');
  });
});
