import { escapeHtml as kernelEscapeHtml } from '@leadflow/shared-kernel';
import { CONSOLE_TEXT, ConsoleLanguage } from './console-i18n';

/**
 * Any value as text for HTML content and double-quoted attribute values (null and undefined as empty):
 * the kernel's {@link kernelEscapeHtml} (`& < > " '` as entities). Every value the console interpolates goes through it.
 */
export function escapeHtml(text: unknown): string {
  return kernelEscapeHtml(String(text ?? ''));
}

/** Shorthand for {@link escapeHtml}. */
export const e = escapeHtml;

/** Where the console lives; the session cookie's `Path`. */
export const CONSOLE_BASE = '/console';

/**
 * A console URL: `CONSOLE_BASE + path` with the query members given (undefined ones left out) and
 * `lang=en` when the page is English, so a click keeps the language. Already URL-encoded; escape it
 * (like any value) when it goes into HTML.
 */
export function consoleUrl(lang: ConsoleLanguage, path: string, query: Record<string, string | number | undefined | null> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== null) params.set(name, String(value));
  if (lang === 'en') params.set('lang', 'en');
  const search = params.toString();
  return `${CONSOLE_BASE}${path}${search ? `?${search}` : ''}`;
}

/** A hidden CSRF field: every console form carries one (synchronizer token of the session). */
export function csrfField(csrf: string): string {
  return `<input type="hidden" name="csrf" value="${e(csrf)}">`;
}

/** `2026-11-25 14:03 UTC` (minutes) from an ISO instant; `—` for null. */
export function formatInstant(iso: string | null | undefined): string {
  if (!iso) return '—';
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

export interface LayoutOptions {
  lang: ConsoleLanguage;
  title: string;
  /** The session's CSRF token: shows the navigation and the logout button. Null on the login and error pages without a session. */
  csrf: string | null;
  /** Path (below CONSOLE_BASE) and query of this page, for the language switch. */
  here: { path: string; query?: Record<string, string | number | undefined | null> };
  body: string;
  /** Loads Chart.js and the console script (pages with charts). */
  charts?: boolean;
}

/**
 * The page frame: `<html lang>`, the console's stylesheet, the navigation (accounts, the other language,
 * logout), and, on pages with charts, Chart.js and the console script, all from the api itself (`script-src
 * 'self'` of the CSP: no inline script, no CDN).
 */
export function layout(options: LayoutOptions): string {
  const t = CONSOLE_TEXT[options.lang];
  const other: ConsoleLanguage = options.lang === 'fr' ? 'en' : 'fr';
  const nav =
    options.csrf === null
      ? `<nav><a href="${e(consoleUrl(other, options.here.path, options.here.query))}" hreflang="${other}" class="lang">${e(t.otherLanguage)}</a></nav>`
      : `<nav><a href="${e(consoleUrl(options.lang, ''))}">${e(t.accounts)}</a>
<a href="${e(consoleUrl(other, options.here.path, options.here.query))}" hreflang="${other}" class="lang">${e(t.otherLanguage)}</a>
<form method="post" action="${e(consoleUrl(options.lang, '/logout'))}" class="inline">${csrfField(options.csrf)}<button type="submit" class="link" id="logout">${e(t.logout)}</button></form></nav>`;
  const scripts = options.charts
    ? `\n<script src="${CONSOLE_BASE}/assets/chart.umd.min.js" defer></script>\n<script src="${CONSOLE_BASE}/assets/console.js" defer></script>`
    : '';
  return `<!doctype html>
<html lang="${options.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${e(options.title)} · Leadflow</title>
<link rel="stylesheet" href="${CONSOLE_BASE}/assets/console.css">
<link rel="icon" href="data:,">${scripts}
</head>
<body>
<header><a href="${e(consoleUrl(options.lang, ''))}" class="brand">Leadflow · ${e(t.title)}</a>${nav}</header>
<main>
${options.body}
</main>
</body>
</html>
`;
}
