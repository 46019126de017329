import { describe, expect, it } from 'vitest';
import { extractLinks, LinkExtractor, srcsetUrls } from './html-links.js';
import { mixedContentCategory } from './mixed-content.js';

const page = `<!doctype html>
<html><head>
  <base href="/base/">
  <link rel="stylesheet" href="css/site.css">
  <link rel="shortcut icon" href="/favicon.ico">
  <link rel="apple-touch-icon-precomposed" href="/touch.png">
  <link rel="preload" as="script" href="/preload.js">
  <link rel="preload" as="font" href="/font.woff2">
  <link rel="canonical" href="https://a.test/">
  <script src="app.js"></script>
</head><body>
  <a href="/contact">  Contact
     us </a>
  <a href="/icon-only" aria-label="Open menu"><svg></svg></a>
  <a href="/logo"><img src="/logo.png" alt="ACME logo"></a>
  <a href="#top">Top</a>
  <a>no href</a>
  <img src="/a.png" srcset="/a-1x.png 1x, /a,2x.png 2x, /a-3x.png" alt="An image">
  <picture><source srcset="/b.webp 100w,/b-big.webp 200w" type="image/webp"></picture>
  <video src="/movie.mp4" poster="/poster.jpg"><source src="/movie.webm"></video>
  <audio src="/sound.mp3"></audio>
  <iframe src="https://maps.test/embed" title="Map"></iframe>
  <form action="/subscribe"><input name="e"></form>
  <object data="/plugin.swf"></object><embed src="/embed.swf">
  <area href="/area" alt="Region">
  <a href="/entities?a=1&amp;b=2">A &amp; B</a>
</body></html>`;

describe('the links of a page', () => {
  it('names every link and resource with its element, use and text', () => {
    const { refs, base, truncated } = extractLinks(page);
    expect(base).toBe('/base/');
    expect(truncated).toBe(false);
    expect(refs.map((ref) => [ref.raw, ref.element, ref.use, ref.text])).toEqual([
      ['css/site.css', 'link', 'active', null],
      ['/favicon.ico', 'link', 'passive', null],
      ['/touch.png', 'link', 'passive', null],
      ['/preload.js', 'link', 'active', null],
      ['app.js', 'script', 'active', null],
      ['/contact', 'a', 'navigation', 'Contact us'],
      ['/icon-only', 'a', 'navigation', 'Open menu'],
      ['/logo', 'a', 'navigation', 'ACME logo'],
      ['/logo.png', 'img', 'passive', 'ACME logo'],
      ['#top', 'a', 'navigation', 'Top'],
      ['/a.png', 'img', 'passive', 'An image'],
      ['/a-1x.png', 'img', 'passive', 'An image'],
      ['/a,2x.png', 'img', 'passive', 'An image'],
      ['/a-3x.png', 'img', 'passive', 'An image'],
      ['/b.webp', 'source', 'passive', null],
      ['/b-big.webp', 'source', 'passive', null],
      ['/movie.mp4', 'video', 'passive', null],
      ['/poster.jpg', 'video', 'passive', null],
      ['/movie.webm', 'source', 'passive', null],
      ['/sound.mp3', 'audio', 'passive', null],
      ['https://maps.test/embed', 'iframe', 'active', 'Map'],
      ['/subscribe', 'form', 'active', null],
      ['/plugin.swf', 'object', 'active', null],
      ['/embed.swf', 'embed', 'active', null],
      ['/area', 'area', 'navigation', 'Region'],
      ['/entities?a=1&b=2', 'a', 'navigation', 'A & B'],
    ]);
  });

  it('gives the same links whatever the chunks the page arrives in', () => {
    const extractor = new LinkExtractor(Number.POSITIVE_INFINITY);
    for (let at = 0; at < page.length; at += 7) extractor.write(page.slice(at, at + 7));
    expect(extractor.end().refs).toEqual(extractLinks(page).refs);
  });

  it('keeps at most the bound and says so', () => {
    const many = Array.from({ length: 50 }, (_, n) => `<a href="/p/${n}">${n}</a>`).join('');
    const { refs, truncated } = extractLinks(many, 10);
    expect(refs).toHaveLength(10);
    expect(truncated).toBe(true);
  });

  it('clips a long link text', () => {
    const { refs } = extractLinks(`<a href="/x">${'word '.repeat(200)}</a>`);
    expect(refs[0]?.text?.length).toBe(200);
  });
});

describe('srcset', () => {
  it('reads every candidate, descriptors or not, by the standard', () => {
    expect(srcsetUrls('a.png 1x, b.png 2x')).toEqual(['a.png', 'b.png']);
    expect(srcsetUrls('a.png, b.png 2x')).toEqual(['a.png', 'b.png']);
    // A comma inside a URL belongs to it (commas split candidates only after whitespace or descriptors).
    expect(srcsetUrls('a.png,b.png 2x')).toEqual(['a.png,b.png']);
    expect(srcsetUrls('a.png, b.png,, c.png')).toEqual(['a.png', 'b.png', 'c.png']);
    expect(srcsetUrls(' /img?w=1,2 100w , x 2x')).toEqual(['/img?w=1,2', 'x']);
    expect(srcsetUrls('a.png (max-width: 1px, 2px) 1x, b.png')).toEqual(['a.png', 'b.png']);
    expect(srcsetUrls('  ,, ')).toEqual([]);
    expect(srcsetUrls('single.png')).toEqual(['single.png']);
  });
});

describe('mixed content', () => {
  it('is an https page loading an http resource, active or passive by what loads it', () => {
    expect(mixedContentCategory('https://a.test/', 'http://a.test/x.js', 'active')).toBe('active');
    expect(mixedContentCategory('https://a.test/', 'http://cdn.test/x.png', 'passive')).toBe('passive');
  });

  it('is not a link to an http page, nor anything on an http page, nor an https resource', () => {
    expect(mixedContentCategory('https://a.test/', 'http://a.test/page', 'navigation')).toBeNull();
    expect(mixedContentCategory('http://a.test/', 'http://a.test/x.js', 'active')).toBeNull();
    expect(mixedContentCategory('https://a.test/', 'https://a.test/x.js', 'active')).toBeNull();
  });

  it('classes the elements a page loads from as browsers do', () => {
    const uses = extractLinks(page).refs.map((ref) => `${ref.element}:${ref.use}`);
    for (const active of ['script', 'iframe', 'form', 'object', 'embed'])
      expect(uses).toContain(`${active}:active`);
    for (const passive of ['img', 'source', 'video', 'audio']) expect(uses).toContain(`${passive}:passive`);
  });
});
