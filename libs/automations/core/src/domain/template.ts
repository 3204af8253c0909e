import { escapeHtml } from '@leadflow/shared-kernel';
/**
 * Message templates of `send_email` steps: `{{contact.<field>}}` and `{{event.<key>}}` (spaces allowed
 * inside the braces). Values are HTML-escaped; objects and arrays are serialised as JSON (then
 * escaped); null, undefined and unknown names render as an empty string. Anything else between
 * braces is left as written.
 */
const VARIABLE = /\{\{\s*(contact|event)\.([A-Za-z0-9_-]{1,100})\s*\}\}/g;

export interface TemplateValues {
  contact: Record<string, unknown>;
  event: Record<string, unknown>;
}

function asText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Renders `template` with HTML-escaped values (`escape` false for plain-text parts such as the subject). */
export function renderTemplate(template: string, values: TemplateValues, escape = true): string {
  return template.replace(VARIABLE, (_match, scope: 'contact' | 'event', name: string) => {
    const source = values[scope];
    const value = Object.prototype.hasOwnProperty.call(source, name) ? source[name] : undefined;
    const text = asText(value);
    return escape ? escapeHtml(text) : text;
  });
}
