import { sanitizeEmailHtml } from './email-html';

describe('sanitizeEmailHtml (public-api-v1 › Emails: the HTML body is sanitised by the sender)', () => {
  it('keeps text formatting, lists, links and tables', () => {
    const html =
      '<p>Bonjour <strong>Nadia</strong>, <em>merci</em>!<br></p>' +
      '<ul><li>Cuisine</li></ul><ol><li>Salle de bain</li></ol>' +
      '<a href="https://lavoie.test/soumission" title="Voir">Voir</a> <a href="mailto:info@lavoie.test">Écrire</a>' +
      '<table border="0" cellpadding="4"><thead><tr><th scope="col">Poste</th></tr></thead><tbody><tr><td colspan="2" align="right">1 250,00 $</td></tr></tbody></table>';

    expect(sanitizeEmailHtml(html)).toBe(html.replace('<br>', '<br />'));
  });

  it('removes <script> and <style> with their content, forms, frames and event handlers', () => {
    const dirty =
      '<p onclick="steal()">Bonjour<script>alert(document.cookie)</script></p><style>p{display:none}</style>' +
      '<iframe src="https://evil.test"></iframe><form action="https://evil.test"><input name="x"></form><object data="x"></object>';

    expect(sanitizeEmailHtml(dirty)).toBe('<p>Bonjour</p>');
  });

  it('drops javascript: and data: URLs from links and keeps the link text', () => {
    expect(sanitizeEmailHtml('<a href="javascript:alert(1)">a</a><a href="JaVaScRiPt:alert(1)">b</a><a href="data:text/html,x">c</a>')).toBe(
      '<a>a</a><a>b</a><a>c</a>',
    );
  });

  it('keeps images served over https only; other images disappear', () => {
    expect(sanitizeEmailHtml('<img src="https://cdn.lavoie.test/logo.png" alt="Logo" width="120" onerror="x()">')).toBe(
      '<img src="https://cdn.lavoie.test/logo.png" alt="Logo" width="120" />',
    );
    expect(sanitizeEmailHtml('<p><img src="http://cdn.lavoie.test/logo.png"><img src="data:image/png;base64,AAAA"><img src="//cdn.test/x.png"><img></p>')).toBe(
      '<p></p>',
    );
  });

  it('keeps simple inline styles and drops the rest of a style attribute', () => {
    expect(sanitizeEmailHtml('<p style="color:#2563eb;text-align:center;position:fixed;background-image:url(https://evil.test/x)">x</p>')).toBe(
      '<p style="color:#2563eb;text-align:center">x</p>',
    );
  });

  it('adds rel="noopener noreferrer" to links opening a new window', () => {
    expect(sanitizeEmailHtml('<a href="https://lavoie.test" target="_blank" rel="opener">x</a>')).toBe(
      '<a href="https://lavoie.test" target="_blank" rel="noopener noreferrer">x</a>',
    );
  });

  it('escapes text and drops unknown tags but keeps their text', () => {
    expect(sanitizeEmailHtml('<custom-tag>5 < 6 & "ok"</custom-tag>')).toBe('5 &lt; 6 &amp; "ok"');
  });
});
