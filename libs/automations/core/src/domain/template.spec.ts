import { escapeHtml } from '@leadflow/shared-kernel';
import { renderTemplate } from './template';

describe('send_email templates: {{contact.*}} and {{event.*}}', () => {
  const values = {
    contact: { first_name: 'Nadia', last_name: null, email: 'nadia@example.com' },
    event: { message: 'Merci & <bienvenue>', details: { pièces: 3 }, list: [1, 'a'], zero: 0, flag: false },
  };

  it('fills contact fields and top-level event keys, spaces allowed inside the braces', () => {
    expect(renderTemplate('Bonjour {{contact.first_name}} ({{ contact.email }})', values)).toBe('Bonjour Nadia (nadia@example.com)');
  });

  it('HTML-escapes values in bodies', () => {
    expect(renderTemplate('<p>{{event.message}}</p>', values)).toBe('<p>Merci &amp; &lt;bienvenue&gt;</p>');
  });

  it('serialises nested objects and arrays as JSON (then escapes them)', () => {
    expect(renderTemplate('{{event.details}} {{event.list}}', values)).toBe('{&quot;pièces&quot;:3} [1,&quot;a&quot;]');
  });

  it('renders null, unknown names and unknown scopes as written or empty', () => {
    expect(renderTemplate('[{{contact.last_name}}][{{event.absent}}][{{other.x}}][{{event.constructor}}]', values)).toBe('[][][{{other.x}}][]');
  });

  it('keeps 0 and false', () => {
    expect(renderTemplate('{{event.zero}} {{event.flag}}', values)).toBe('0 false');
  });

  it('leaves values unescaped for plain-text parts (subject)', () => {
    expect(renderTemplate('{{event.message}}', values, false)).toBe('Merci & <bienvenue>');
  });

  it('escapes the five HTML special characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
