import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ERROR_CODE_DOCS, knownErrorCodes, SECURITY_HEADERS, statusOfCode, typeOfStatus } from '@leadflow/shared-platform';
import { TestApi } from './support/test-api';

/**
 * Developer documentation pages (issue 16, items 2 and 3): the error catalogue at `/docs/errors`
 * (French) and `/docs/en/errors` (English), one `<section id="<code>">` per code of the catalogue, so
 * no `doc_url` is dead; the changelog at `/docs/changelog`. HTML, no API key, no external resource,
 * the security headers of every response. The API reference (issue 16, item 1) at `/docs` and `/docs/en`:
 * Redoc's standalone bundle, served by the api, renders the served public description.
 */
const PAGES = ['/docs/errors', '/docs/en/errors', '/docs/changelog'];

describe('documentation pages', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await TestApi.start();
  });
  afterAll(() => api.close());

  it('every code of the error catalogue is documented in French and English (error-docs.ts)', () => {
    const missing = knownErrorCodes().filter((code) => {
      const doc = ERROR_CODE_DOCS[code];
      return !doc || !doc.fr.meaning || !doc.fr.action || !doc.en.meaning || !doc.en.action;
    });
    expect(missing).toEqual([]);
    expect(Object.keys(ERROR_CODE_DOCS).filter((code) => !knownErrorCodes().includes(code))).toEqual([]);
  });

  it.each(['/docs/errors', '/docs/en/errors'])('%s has an anchored entry for every code the service can emit, with its status and type', async (path) => {
    const response = await api.request({ path });
    expect(response.status).toBe(200);
    const html = response.raw.body;
    const missing = knownErrorCodes().filter((code) => {
      const start = html.indexOf(`<section id="${code}">`);
      if (start < 0) return true;
      const section = html.slice(start, html.indexOf('</section>', start));
      const status = statusOfCode(code);
      return !section.includes(`<code>${status}</code>`) || !section.includes(`<code>${typeOfStatus(status)}</code>`);
    });
    expect(missing).toEqual([]);
  });

  it('the French and English catalogues differ in language only', async () => {
    const fr = (await api.request({ path: '/docs/errors' })).raw.body;
    const en = (await api.request({ path: '/docs/en/errors' })).raw.body;
    expect(fr).toContain('<html lang="fr">');
    expect(en).toContain('<html lang="en">');
    expect(fr).toContain(ERROR_CODE_DOCS.idempotency_conflict.fr.action.replace(/`([^`]+)`/g, '<code>$1</code>').replace(/'/g, '&#39;'));
    expect(en).toContain('Retry with exponential backoff');
  });

  it.each(PAGES)('%s is served without an API key as HTML with the security headers and no external resource', async (path) => {
    const response = await api.request({ path, headers: { authorization: 'Bearer wrong' } });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(response.headers[name.toLowerCase()]).toBe(value);
    expect(response.headers['x-request-id']).toBeDefined();
    expect(response.raw.body).not.toMatch(/<(script|img)\b|src=|@import|url\(/i);
    expect([...response.raw.body.matchAll(/<link\b[^>]*>/g)].map((match) => match[0])).toEqual(['<link rel="icon" href="data:,">']);
    expect(response.raw.body).not.toMatch(/https?:\/\/(?!keepachangelog\.com)/);
  });

  it("a real error's doc_url resolves: GET it answers 200 and holds the code's anchor", async () => {
    const error = await api.request({ path: '/v1/me' });
    expect(error.status).toBe(401);
    const docUrl = new URL(error.body.doc_url as string);
    expect(docUrl.pathname).toBe('/docs/errors');
    expect(docUrl.hash).toBe(`#${error.body.code}`);
    const page = await api.request({ path: docUrl.pathname + docUrl.search });
    expect(page.status).toBe(200);
    expect(page.raw.body).toContain(`<section id="${error.body.code}">`);
  });

  it.each([
    ['/docs', 'fr', '/openapi.json'],
    ['/docs/en', 'en', '/openapi.en.json'],
  ])('%s is the API reference (%s): Redoc from the api itself rendering %s, no key, no inline script', async (path, language, spec) => {
    const response = await api.request({ path, headers: { authorization: 'Bearer wrong' } });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(response.headers[name.toLowerCase()]).toBe(value);
    const html = response.raw.body;
    expect(html).toContain(`<html lang="${language}">`);
    expect(html).toContain(`<redoc spec-url="${spec}"`);
    expect([...html.matchAll(/<script\b([^>]*)>/g)].map((match) => match[1])).toEqual([' src="/docs/redoc.standalone.js"']);
    expect(html).not.toMatch(/https?:\/\//);
    const document = await api.request({ path: spec });
    expect(document.status).toBe(200);
    expect(document.body.openapi).toMatch(/^3\.1\./);
  });

  it('/docs/redoc.standalone.js serves the redoc package bundle, its CDN logo made inline', async () => {
    const response = await api.request({ path: '/docs/redoc.standalone.js' });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(response.raw.body.length).toBeGreaterThan(500_000);
    expect(response.raw.body).not.toContain('cdn.redoc.ly');
    expect(response.raw.body).toContain('spec-url');
  });

  it('/docs/changelog renders CHANGELOG.md: every dated release heading and the breaking changes of the Versioning section', async () => {
    const markdown = readFileSync(resolve(__dirname, '..', '..', '..', 'CHANGELOG.md'), 'utf8');
    const response = await api.request({ path: '/docs/changelog' });
    expect(response.status).toBe(200);
    const releases = [...markdown.matchAll(/^## \[([^\]]+)\]/gm)].map((match) => match[1]);
    expect(releases.filter((release) => /^\d{4}-\d{2}-\d{2}$/.test(release)).length).toBeGreaterThanOrEqual(2);
    for (const release of releases) expect(response.raw.body).toContain(`<h2 id="${release.toLowerCase()}">[${release}]</h2>`);
    for (const text of ['<code>contacts:delete</code>', '<code>status_unknown</code>', '<code>via</code>', '<code>project_id</code>', '<a href="https://keepachangelog.com/en/1.1.0/">']) {
      expect(response.raw.body).toContain(text);
    }
  });
});
