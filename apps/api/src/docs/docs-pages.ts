import { escapeHtml } from '@leadflow/shared-kernel';
import { ERROR_CODE_DOCS, knownErrorCodes, statusOfCode, typeOfStatus } from '@leadflow/shared-platform';

/** Language of a documentation page: French at `/docs/...`, English at `/docs/en/...`. */
export type DocsLanguage = 'fr' | 'en';

const TEXT = {
  fr: {
    title: 'Leadflow : catalogue des erreurs',
    intro: 'Chaque réponse d’erreur porte `code`, `message`, `details`, `type`, `doc_url` (lien vers l’entrée ci-dessous) et `request_id`. Codes triés par statut HTTP.',
    status: 'Statut', type: 'Type', meaning: 'Signification', details: '`details` typique', action: 'Que faire', retry: 'Réessayer ?',
    retryValues: { yes: 'Oui, après `Retry-After` ou avec backoff exponentiel.', no: 'Non : la même requête recevra la même réponse.', after_fix: 'Après correction de la cause seulement.' },
    other: 'English', otherHref: '/docs/en/errors', changelog: 'Journal des modifications', reference: "Référence de l'API", referenceHref: '/docs',
  },
  en: {
    title: 'Leadflow: error catalogue',
    intro: 'Every error response carries `code`, `message`, `details`, `type`, `doc_url` (a link to the entry below) and `request_id`. Codes sorted by HTTP status.',
    status: 'Status', type: 'Type', meaning: 'Meaning', details: 'Typical `details`', action: 'What to do', retry: 'Retry?',
    retryValues: { yes: 'Yes, after `Retry-After` or with exponential backoff.', no: 'No: the same request gets the same answer.', after_fix: 'Only once the cause is fixed.' },
    other: 'Français', otherHref: '/docs/errors', changelog: 'Changelog', reference: 'API reference', referenceHref: '/docs/en',
  },
} as const;

const STYLE = 'body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}'
  + 'code,pre{font-family:ui-monospace,monospace;background:#f3f3f3;border-radius:3px;padding:0 .2em}pre{padding:.5em;overflow-x:auto}'
  + 'section{border-top:1px solid #ddd;padding:.5rem 0}section:target{background:#fffbe6}dt{font-weight:600}dd{margin:0 0 .4rem 1rem}'
  + 'nav a{margin-right:1rem}h2 a{color:inherit;text-decoration:none}';

/** Escapes text, then renders `code` spans and `[text](url)` links (the only inline markdown used here). */
export function inlineMarkdown(text: string): string {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, '<a href="$2">$1</a>');
}

function page(language: DocsLanguage, title: string, body: string): string {
  return `<!DOCTYPE html>\n<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">`
    + `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>\n`;
}

/**
 * The error catalogue page: one `<section id="<code>">` per code of the catalogue (error-catalog.ts),
 * sorted by status then code, with status, envelope `type`, meaning, typical `details`, what to do and
 * whether to retry (error-docs.ts). A code without documentation still gets its anchored entry.
 */
export function renderErrorCatalogue(language: DocsLanguage): string {
  const t = TEXT[language];
  const codes = knownErrorCodes().sort((a, b) => statusOfCode(a) - statusOfCode(b) || a.localeCompare(b));
  const sections = codes.map((code) => {
    const status = statusOfCode(code);
    const doc = ERROR_CODE_DOCS[code];
    const rows: [string, string][] = [
      [t.status, `<code>${status}</code>`],
      [t.type, `<code>${typeOfStatus(status)}</code>`],
    ];
    if (doc) {
      rows.push(
        [t.meaning, inlineMarkdown(doc[language].meaning)],
        [t.details, `<code>${escapeHtml(doc.details)}</code>`],
        [t.action, inlineMarkdown(doc[language].action)],
        [t.retry, inlineMarkdown(t.retryValues[doc.retry])],
      );
    }
    const list = rows.map(([term, value]) => `<dt>${inlineMarkdown(term)}</dt><dd>${value}</dd>`).join('');
    return `<section id="${escapeHtml(code)}"><h2><a href="#${escapeHtml(code)}"><code>${escapeHtml(code)}</code></a></h2><dl>${list}</dl></section>`;
  });
  const nav = `<nav><a href="${t.referenceHref}">${escapeHtml(t.reference)}</a><a href="${t.otherHref}" hreflang="${language === 'fr' ? 'en' : 'fr'}">${t.other}</a><a href="/docs/changelog">${t.changelog}</a></nav>`;
  return page(language, t.title, `${nav}<h1>${escapeHtml(t.title)}</h1><p>${inlineMarkdown(t.intro)}</p>${sections.join('\n')}`);
}

/**
 * Renders the changelog's markdown (the subset CHANGELOG.md uses: `#`/`##`/`###` headings, `- ` list
 * items, paragraphs, inline code and links) as one HTML page. Headings get ids so entries can be linked:
 * lower case, runs of other characters than letters, digits and dots as `-` (`## [2026-11-24]` is
 * `#2026-11-24`, `## [Unreleased]` is `#unreleased`).
 */
export function renderChangelog(markdown: string): string {
  const html: string[] = [];
  let inList = false;
  const closeList = () => {
    if (inList) html.push('</ul>');
    inList = false;
  };
  for (const line of markdown.split(/\r?\n/)) {
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    if (heading) {
      closeList();
      const level = heading[1].length;
      const slug = heading[2].toLowerCase().replace(/[^a-z0-9.]+/g, '-').replace(/^-|-$/g, '');
      html.push(`<h${level} id="${escapeHtml(slug)}">${inlineMarkdown(heading[2])}</h${level}>`);
    } else if (/^\s*[-*]\s+/.test(line)) {
      if (!inList) html.push('<ul>');
      inList = true;
      html.push(`<li>${inlineMarkdown(line.replace(/^\s*[-*]\s+/, ''))}</li>`);
    } else if (line.trim() === '') {
      closeList();
    } else {
      closeList();
      html.push(`<p>${inlineMarkdown(line)}</p>`);
    }
  }
  closeList();
  return page('en', 'Leadflow: changelog', `<nav><a href="/docs">Référence</a><a href="/docs/en">Reference</a><a href="/docs/errors">Erreurs</a><a href="/docs/en/errors">Errors</a></nav>${html.join('\n')}`);
}

const REFERENCE = {
  fr: { title: "Leadflow : référence de l'API v1", spec: '/openapi.json', other: 'English', otherHref: '/docs/en', errors: 'Erreurs', errorsHref: '/docs/errors', changelog: 'Journal des modifications' },
  en: { title: 'Leadflow: API v1 reference', spec: '/openapi.en.json', other: 'Français', otherHref: '/docs', errors: 'Errors', errorsHref: '/docs/en/errors', changelog: 'Changelog' },
} as const;

/**
 * The API reference page: Redoc's standalone bundle (served by the api at `/docs/redoc.standalone.js`,
 * never from a CDN) renders the served public description of the language (`/openapi.json` or
 * `/openapi.en.json`). No inline script (the `<redoc spec-url>` element initialises itself, so the
 * service's CSP `script-src 'self'` holds); search is disabled (it needs a blob worker the CSP refuses).
 */
export function renderApiReference(language: DocsLanguage): string {
  const t = REFERENCE[language];
  const nav = '<nav style="padding:.5rem 1rem;font:14px system-ui,sans-serif;border-bottom:1px solid #ddd">'
    + `<a href="${t.otherHref}">${t.other}</a> · <a href="${t.errorsHref}">${t.errors}</a> · <a href="/docs/changelog">${t.changelog}</a></nav>`;
  return `<!DOCTYPE html>\n<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">`
    + `<title>${escapeHtml(t.title)}</title><style>body{margin:0}</style></head><body>${nav}`
    + `<redoc spec-url="${t.spec}" disable-search></redoc><script src="/docs/redoc.standalone.js"></script></body></html>\n`;
}
