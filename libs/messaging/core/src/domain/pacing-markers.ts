/**
 * The internal agent pacing marker (operator-api › Conversation pacing markers): `[[pause]]` or
 * `[[pause:<ms>]]` (milliseconds, digits only), exactly in that case and spelling.
 */
const PACING_MARKER = /\[\[pause(?::\d+)?\]\]/g;

/**
 * `content` of a message as the public API shows it (public-api-v1 › Conversation and message):
 * every pacing marker dropped, the bubbles it separated (each trimmed, empty ones dropped) joined by
 * one blank line, the ends trimmed. `"A[[pause]]B"` reads `"A\n\nB"`; a message of markers (and
 * whitespace) alone reads `""`. Text without markers is only trimmed. Pure.
 */
export function stripPacingMarkers(stored: string): string {
  if (!stored.includes('[[pause')) return stored.trim();
  return stored
    .split(PACING_MARKER)
    .map((bubble) => bubble.trim())
    .filter((bubble) => bubble.length > 0)
    .join('\n\n');
}
