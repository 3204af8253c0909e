import sanitizeHtml from 'sanitize-html';

/**
 * What an outgoing email body may contain (public-api-v1 › Emails: "HTML, sanitised by the sender").
 * Text formatting, lists, tables, links (`http`, `https`, `mailto`, `tel`) and images served over
 * `https` only. Scripts, styles sheets, forms, frames, event handlers and `javascript:` or `data:`
 * URLs never survive; the content of `<script>` and `<style>` is dropped with them.
 */
const ALLOWED_TAGS = [
  'a', 'p', 'br', 'hr', 'div', 'span', 'blockquote', 'pre', 'code',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'strong', 'b', 'em', 'i', 'u', 's', 'small', 'sub', 'sup',
  'ul', 'ol', 'li',
  'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption', 'colgroup', 'col',
  'img',
];

const CELL_ATTRIBUTES = ['colspan', 'rowspan', 'align', 'valign', 'width', 'height', 'bgcolor'];

/** Inline CSS kept on any allowed tag: colours, alignment, font and box basics, with plain values only. */
const COLOR = [/^#[0-9a-f]{3,8}$/i, /^rgba?\(\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*(,\s*(0|1|0?\.\d+)\s*)?\)$/i, /^[a-z]{3,20}$/i];
const LENGTH = /^(0|-?\d{1,4}(\.\d{1,2})?(px|em|rem|%|pt))$/i;
const LENGTHS = /^(0|-?\d{1,4}(\.\d{1,2})?(px|em|rem|%|pt))(\s+(0|-?\d{1,4}(\.\d{1,2})?(px|em|rem|%|pt))){0,3}$/i;
const ALLOWED_STYLES: sanitizeHtml.IOptions['allowedStyles'] = {
  '*': {
    color: COLOR,
    'background-color': COLOR,
    'text-align': [/^(left|right|center|justify)$/i],
    'vertical-align': [/^(top|middle|bottom|baseline)$/i],
    'font-weight': [/^(normal|bold|bolder|lighter|[1-9]00)$/i],
    'font-style': [/^(normal|italic)$/i],
    'font-size': [LENGTH],
    'font-family': [/^[a-z0-9 ,'"-]{1,100}$/i],
    'line-height': [LENGTH, /^\d(\.\d{1,2})?$/],
    'text-decoration': [/^(none|underline|line-through)$/i],
    width: [LENGTH],
    'max-width': [LENGTH],
    height: [LENGTH],
    padding: [LENGTHS],
    margin: [LENGTHS],
    border: [/^(none|0|\d{1,2}px (solid|dashed|dotted) (#[0-9a-f]{3,8}|[a-z]{3,20}))$/i],
    'border-collapse': [/^(collapse|separate)$/i],
  },
};

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: {
    '*': ['style', 'title', 'dir', 'lang'],
    a: ['href', 'name', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height'],
    table: ['width', 'border', 'cellpadding', 'cellspacing', 'align', 'bgcolor', 'role'],
    td: CELL_ATTRIBUTES,
    th: [...CELL_ATTRIBUTES, 'scope'],
    tr: ['align', 'valign', 'bgcolor'],
    col: ['span', 'width'],
    colgroup: ['span', 'width'],
    p: ['align'],
    div: ['align'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  allowedStyles: ALLOWED_STYLES,
  disallowedTagsMode: 'discard',
  // An image whose `src` did not survive (not https) is dropped rather than left empty.
  exclusiveFilter: (frame) => frame.tag === 'img' && !/^https:\/\//i.test(frame.attribs.src ?? ''),
  transformTags: {
    a: (tagName, attribs) =>
      attribs.target === '_blank' ? { tagName, attribs: { ...attribs, rel: 'noopener noreferrer' } } : { tagName, attribs },
  },
};

/** The body as it is stored and sent: only the allowlist above survives. */
export function sanitizeEmailHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}
