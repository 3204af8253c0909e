import { ERROR_CODE_DOCS, knownErrorCodes, statusOfCode, typeOfStatus } from '@leadflow/shared-platform';

/** Language of a documentation page: French at `/docs/...`, English at `/docs/en/...`. */
export type DocsLanguage = 'fr' | 'en';

const TEXT = {
  fr: {
    title: 'Leadflow : catalogue des erreurs',
    intro: 'Chaque réponse d’erreur porte `code`, `message`, `details`, `type`, `doc_url` (lien vers l’entrée ci-dessous) et `request_id`. Codes triés par statut HTTP.',
    status: 'Statut', type: 'Type', meaning: 'Signification', details: '`details` typique', action: 'Que faire', retry: 'Réessayer ?',
    retryValues: { yes: 'Oui, après `Retry-After` ou avec backoff exponentiel.', no: 'Non : la même requête recevra la même réponse.', after_fix: 'Après correction de la cause seulement.' },
    other: 'English', otherHref: '/docs/en/errors', changelog: 'Journal des modifications',
  },
  en: {
    title: 'Leadflow: error catalogue',
    intro: 'Every error response carries `code`, `message`, `details`, `type`, `doc_url` (a link to the entry below) and `request_id`. Codes sorted by HTTP status.',
    status: 'Status', type: 'Type', meaning: 'Meaning', details: 'Typical `details`', action: 'What to do', retry: 'Retry?',
    retryValues: { yes: 'Yes, after `Retry-After` or with exponential backoff.', no: 'No: the same request gets the same answer.', after_fix: 'Only once the cause is fixed.' },
    other: 'Français', otherHref: '/docs/errors', changelog: 'Changelog',
  },
} as const;

const STYLE = 'body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}'
  + 'code,pre{font-family:ui-monospace,monospace;background:#f3f3f3;border-radius:3px;padding:0 .2em}pre{padding:.5em;overflow-x:auto}'
  + 'section{border-top:1px solid #ddd;padding:.5rem 0}section:target{background:#fffbe6}dt{font-weight:600}dd{margin:0 0 .4rem 1rem}'
  + 'nav a{margin-right:1rem}h2 a{color:inherit;text-decoration:none}';

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** Escapes text, then renders `code` spans and `[text](url)` links (the only inline markdown used here). */
export function inlineMarkdown(text: string): string {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, '<a href="$2">$1</a>');
}

function page(language: DocsLanguage, title: string, body: string): string {
  return `<!DOCTYPE html>\n<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`
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
  const nav = `<nav><a href="${t.otherHref}" hreflang="${language === 'fr' ? 'en' : 'fr'}">${t.other}</a><a href="/docs/changelog">${t.changelog}</a></nav>`;
  return page(language, t.title, `${nav}<h1>${escapeHtml(t.title)}</h1><p>${inlineMarkdown(t.intro)}</p>${sections.join('\n')}`);
}

/**
 * Renders the changelog's markdown (the subset CHANGELOG.md uses: `#`/`##`/`###` headings, `- ` list
 * items, paragraphs, inline code and links) as one HTML page. Headings get ids (`[1.3.0] - 2026-11-24`
 * becomes `1.3.0---2026-11-24`-like slugs) so entries can be linked.
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
  return page('en', 'Leadflow: changelog', `<nav><a href="/docs/errors">Erreurs</a><a href="/docs/en/errors">Errors</a></nav>${html.join('\n')}`);
}
