const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Escapes text for HTML element content and quoted attribute values (`&`, `<`, `>`, `"` and `'` become
 * `&amp;`, `&lt;`, `&gt;`, `&quot;` and `&#39;`). Used by every page and email Leadflow renders itself.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]);
}
