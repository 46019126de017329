import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A 1×1 PNG. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
/** A small shop's page: a stylesheet, a deferred script, three images. */
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Cups and saucers</title>
<meta name="description" content="Cups and saucers, made by hand."><link rel="stylesheet" href="/style.css">
<script src="/app.js" defer></script></head><body><header><h1>Cups and saucers</h1></header><main>
${Array.from({ length: 3 }, (_, n) => `<article><h2>Cup ${n + 1}</h2><img src="/cup-${n + 1}.png" alt="Cup ${n + 1}" width="120" height="120"><p>${'Made by hand, fired twice. '.repeat(12)}</p><a href="/cup/${n + 1}">About cup ${n + 1}</a></article>`).join('\n')}
</main></body></html>`;
const ASSETS: Record<string, [string, string | Buffer]> = {
  '/style.css': [
    'text/css',
    'body{font:16px/1.5 sans-serif;margin:0 auto;max-width:40rem}img{display:block}',
  ],
  '/app.js': [
    'text/javascript',
    'document.querySelectorAll("article").forEach((a) => a.classList.add("ready"));',
  ],
};

/** The page Lighthouse audits in the benchmarks, served on 127.0.0.1: every path not an asset or a PNG is the page. */
export async function startLighthousePage(): Promise<{ port: number; close(): void }> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const asset = ASSETS[path];
    if (asset) response.writeHead(200, { 'content-type': asset[0] }).end(asset[1]);
    else if (path.endsWith('.png')) response.writeHead(200, { 'content-type': 'image/png' }).end(PIXEL);
    else response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}
