import { describe, expect, it } from 'vitest';
import { renderMarkdown, sanitizePostHtml } from './markdown.js';

/** Whatever comes out: no element or attribute that runs anything, no link but http(s) and mailto. */
function expectInert(html: string) {
  expect(html).not.toMatch(/<script|<iframe|<object|<embed|<img|<svg|<style|<form|<input|<base|<meta|<link/i);
  for (const [, href] of html.matchAll(/href="([^"]*)"/g)) expect(href).toMatch(/^(https?:|mailto:)/);
  // Such words may stay as text a visitor reads, never inside a tag.
  for (const [tag] of html.matchAll(/<[a-z][^>]*>/gi)) {
    expect(tag).not.toMatch(/javascript:|vbscript:|data:/i);
    expect(tag).not.toMatch(/\son[a-z]+\s*=/i);
  }
}

describe('incident posts’ Markdown: rendered, then only what the allow-list names', () => {
  it('renders the Markdown people write: emphasis, lists, code, links with rel="nofollow noopener"', () => {
    const html = renderMarkdown(
      '# Cause\n\n**Database** was *slow*.\n\n- one\n- two\n\n`code` [status](https://example.com/a?b=1&c=2)',
    );
    expect(html).toContain('<h4>Cause</h4>');
    expect(html).toContain('<strong>Database</strong>');
    expect(html).toContain('<em>slow</em>');
    expect(html).toContain('<li>one</li>');
    expect(html).toContain('<code>code</code>');
    expect(html).toContain('<a href="https://example.com/a?b=1&amp;c=2" rel="nofollow noopener">status</a>');
    expect(renderMarkdown('mail ops@example.com')).toContain('href="mailto:ops@example.com"');
  });

  it.each([
    ['a script tag', '<script>alert(1)</script>'],
    ['an image with onerror', '<img src=x onerror=alert(1)>'],
    ['a javascript: link', '[click](javascript:alert(1))'],
    ['a javascript: link in mixed case and spaces', '[x](JaVaScRiPt:alert(1)) [y]( javascript:alert(1))'],
    ['an entity-encoded javascript: link', '[x](java&#x73;cript:alert(1)) [y](&#106;avascript:alert(1))'],
    ['a data: URL', '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)'],
    ['an image from javascript:', '![x](javascript:alert(1))'],
    ['an image from a data: URL', '![x](data:image/svg+xml,<svg onload=alert(1)>)'],
    ['a vbscript: autolink', '<vbscript:msgbox(1)>'],
    ['an iframe and an svg', '<iframe src="https://evil"></iframe><svg onload=alert(1)>'],
    ['a nested tag trick', '<scr<script>ipt>alert(1)</scr</script>ipt>'],
    ['a reference link to javascript:', '[x][1]\n\n[1]: javascript:alert(1)'],
    ['an attribute break out of a link title', '[x](https://a.example "a\\" onmouseover=\\"alert(1)")'],
    ['a style tag', '<style>body{background:url(javascript:alert(1))}</style>'],
  ])('%s stays inert', (_name, text) => {
    expectInert(renderMarkdown(text));
  });

  it('raw HTML is shown as text, never as markup', () => {
    expect(renderMarkdown('<b onclick="x()">hi</b>')).toBe('<p>&lt;b onclick="x()"&gt;hi&lt;/b&gt;</p>\n');
  });

  it('the sanitizer alone strips hostile HTML however it came (links without a safe scheme lose the link)', () => {
    const html = sanitizePostHtml(
      '<a href="javascript:alert(1)">x</a><a href="https://a.example" onclick="x()" target="_top">y</a>' +
        '<p style="x" onmouseover="y">p</p><img src="javascript:alert(1)"><a href="//evil.example">z</a>' +
        '<math><mi xlink:href="javascript:alert(1)">m</mi></math><form action="https://e"><button>b</button></form>',
    );
    expectInert(html);
    expect(html).toContain('<a href="https://a.example" rel="nofollow noopener">y</a>');
    expect(html).toContain('<p>p</p>');
    expect(html).not.toContain('//evil.example"');
  });

  it('images are links at most: a post loads nothing into visitors’ browsers', () => {
    const html = renderMarkdown('![chart](https://cdn.example/chart.png)');
    expect(html).not.toContain('<img');
    expectInert(html);
  });
});
