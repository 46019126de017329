import { describe, expect, it } from 'vitest';
import {
  COMMONMARK,
  escapeHtml,
  escapeXml,
  GOOGLE_CHAT,
  HTML,
  noMentions,
  ROCKETCHAT_MARKDOWN,
  ZULIP_MARKDOWN,
} from './markup.js';
import { cut, ELLIPSIS, fitEscaped, fitSegments, utf8Bytes } from './text-fit.js';

describe('fitting a message into a limit', () => {
  it('keeps what fits as it is, and cuts the rest with an ellipsis within the limit', () => {
    expect(cut('short', 5)).toBe('short');
    expect(cut('longer text', 8)).toBe(`longer ${ELLIPSIS}`);
    expect(cut('longer text', 8)).toHaveLength(8);
    expect(cut('anything', 0)).toBe('');
  });

  it('never splits a surrogate pair', () => {
    const cutEmoji = cut('ab😀😀😀', 4);
    expect(cutEmoji).toBe(`ab${ELLIPSIS}`);
    expect(cut('a😀b', 3)).toBe(`a${ELLIPSIS}`);
  });

  it('cuts the plain text, so an escape is whole or absent, and counts the escaped form', () => {
    const fitted = fitEscaped('<<<<<<<<', 14, escapeHtml);
    expect(fitted).toBe(`&lt;&lt;&lt;${ELLIPSIS}`);
    expect(fitted.length).toBeLessThanOrEqual(14);
    for (let max = 1; max < 40; max++) {
      const text = fitEscaped('a&b<c>"d', max, escapeHtml);
      expect(text.length).toBeLessThanOrEqual(max);
      expect(text).not.toMatch(/&[a-z]*(…|$)/);
    }
  });

  it('measures in bytes where the tool counts bytes', () => {
    const fitted = fitEscaped('é'.repeat(100), 50, undefined, utf8Bytes);
    expect(utf8Bytes(fitted)).toBeLessThanOrEqual(50);
    expect(fitted.endsWith(ELLIPSIS)).toBe(true);
  });

  it('keeps links whole and shares the room between the texts, the short ones whole', () => {
    const link = '<a href="https://monitor.example/incidents/1">Incident</a>';
    const fitted = fitSegments(
      [{ plain: 'Title' }, { plain: 'x'.repeat(500) }, { plain: 'short reason' }, link],
      200,
    );
    expect(fitted.length).toBeLessThanOrEqual(200);
    expect(fitted.startsWith('Title\n')).toBe(true);
    expect(fitted).toContain('\nshort reason\n');
    expect(fitted.endsWith(`\n${link}`)).toBe(true);
    expect(fitted).toContain(`x${ELLIPSIS}`);
    expect(fitSegments([{ plain: 'a' }, 'b'], 10)).toBe('a\nb');
  });

  it('leaves out markup that alone is past the limit, from the end', () => {
    expect(fitSegments([{ plain: 'text' }, 'x'.repeat(50)], 20)).toBe('text');
  });
});

describe('markup', () => {
  it('HTML and XML: text and attribute values', () => {
    expect(escapeHtml('<b> & "q"')).toBe('&lt;b&gt; &amp; &quot;q&quot;');
    expect(escapeXml("it's")).toBe('it&apos;s');
    expect(HTML.link('https://a.example/?x=1&y="2"', 'Open <it>')).toBe(
      '<a href="https://a.example/?x=1&amp;y=&quot;2&quot;">Open &lt;it&gt;</a>',
    );
  });

  it('Markdown dialects: emphasis, links and block markers shown as written, and nobody mentioned', () => {
    expect(COMMONMARK.escape('*bold* _it_ `code` [x](y) <b> ~s~')).toBe(
      '\\*bold\\* \\_it\\_ \\`code\\` \\[x\\](y) \\<b\\> \\~s\\~',
    );
    expect(COMMONMARK.escape('# title\n> quote\n- item\n12. item')).toBe(
      '\\# title\n\\> quote\n\\- item\n12\\. item',
    );
    expect(COMMONMARK.escape('ping @channel')).toBe(`ping @\u2060channel`);
    expect(noMentions('@room')).toBe('@\u2060room');
    // Zulip shows a backslash before <, > and ~ (Python-Markdown escapes none of them).
    expect(ZULIP_MARKDOWN.escape('<b> ~x~ *y*')).toBe('<b> ~x~ \\*y\\*');
    expect(ROCKETCHAT_MARKDOWN.escape('<b> *y*')).toBe('<b> \\*y\\*');
    expect(COMMONMARK.link('https://a.example/(x) y', 'Open')).toBe('[Open](https://a.example/%28x%29%20y)');
  });

  it('a URL in Markdown is a link whose text is the URL, so escapes cannot break it', () => {
    const segment = COMMONMARK.address('https://shop.example/a_b');
    expect(typeof segment === 'string' ? segment : segment.escape?.(segment.plain)).toBe(
      '[https://shop.example/a\\_b](https://shop.example/a_b)',
    );
  });

  it('Google Chat: entities for & < > (so <users/all> mentions nobody), links as <url|label>', () => {
    expect(GOOGLE_CHAT.escape('<users/all> & co')).toBe('&lt;users/all&gt; &amp; co');
    expect(GOOGLE_CHAT.link('https://a.example/?q=a|b', 'Incident')).toBe(
      '<https://a.example/?q=a%7Cb|Incident>',
    );
  });
});
