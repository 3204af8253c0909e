import { escapeHtml } from './html';

describe('escapeHtml', () => {
  it('escapes the five characters that matter in element content and quoted attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;');
  });

  it('leaves other text, accents and emoji alone, and escapes an ampersand of an entity again', () => {
    expect(escapeHtml('Café ☕ — 1 234,56 $')).toBe('Café ☕ — 1 234,56 $');
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
    expect(escapeHtml('')).toBe('');
  });
});
