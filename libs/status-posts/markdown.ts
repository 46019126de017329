import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

/**
 * Markdown as visitors of a status page read it. Two layers, each enough alone: markdown-it with
 * raw HTML off (a `<script>` written in the text stays text) and its link check (no `javascript:`,
 * `vbscript:`, `file:` or `data:`), then an allow-list sanitizer over what it made, so a bug or
 * option of the renderer cannot let an element, attribute or scheme through that we did not list.
 * No images: a post's picture would load from anywhere into every visitor's browser.
 */
const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: true }).disable([
  'image',
]);

const ALLOWED: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'strong',
    'em',
    's',
    'del',
    'code',
    'pre',
    'blockquote',
    'ul',
    'ol',
    'li',
    'a',
    'hr',
    'h4',
    'h5',
    'h6',
  ],
  allowedAttributes: { a: ['href', 'rel'], ol: ['start'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'escape',
  transformTags: {
    // A message's headings sit below the post's own (h3) in the page's outline.
    h1: 'h4',
    h2: 'h4',
    h3: 'h4',
    a: (tagName, attribs) => ({
      tagName,
      attribs: { ...(attribs.href ? { href: attribs.href } : {}), rel: 'nofollow noopener' },
    }),
  },
  // A link whose scheme was refused loses its href; an `<a>` without one is dropped, its text kept.
  exclusiveFilter: (frame) => frame.tag === 'a' && !frame.attribs.href,
};

/** The Markdown `text` as HTML safe to put in a page as it is. */
export function renderMarkdown(text: string): string {
  return sanitizeHtml(markdown.render(text), ALLOWED);
}

/** The sanitizer alone (what any HTML becomes before it is shown): for tests and stored HTML. */
export const sanitizePostHtml = (html: string): string => sanitizeHtml(html, ALLOWED);
