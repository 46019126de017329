import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { z } from 'zod';
import { StoredBody } from '../../../libs/compression/index.js';
import { decimalId } from '../../../libs/contract/index.js';
import { APP_PAGES, type AppPage } from '../../../libs/dashboard/index.js';
import {
  type AppContext,
  AppError,
  type Route,
  sendStoredBody,
  setContentSecurityPolicy,
} from '../../../libs/http/index.js';

/**
 * The browser app's build (`npm run build:web`): apps/web/dist beside the sources, and
 * dist/apps/web/dist beside the compiled server (`npm run build` copies it there).
 */
const APP_DIR = new URL('../../web/dist/', import.meta.url);

/** The page holds a session: no framing, no script, style or connection but our own, no inline code. */
const APP_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'self'",
];

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
};
/** Vite's hashed file names: `index-B1x_9aZc.js`. */
const ASSET_NAME = /^[A-Za-z0-9_-]+\.(js|css|svg|woff2|png)$/;

const NOT_MODIFIED = { description: 'Not modified (the ETag matched)' };

function notBuilt(): AppError {
  return new AppError('service-unavailable', {
    detail: 'The browser app is not built: run `npm run build:web` (scripts/setup.sh does).',
  });
}

/** Files read once and kept with their compressed forms; a missing file is remembered as missing. */
function fileCache() {
  const files = new Map<string, Promise<StoredBody | null>>();
  return (name: string, type: string) => {
    let file = files.get(name);
    if (!file) {
      file = readFile(new URL(name, APP_DIR)).then(
        (bytes) => new StoredBody(bytes, type),
        () => null,
      );
      // A build made while the server runs is found on the next request for a file it lacked.
      void file.then((found) => found ?? files.delete(name));
      files.set(name, file);
    }
    return file;
  };
}

/**
 * index.html at each of the app's pages (app-pages.ts, the list its router draws; no-cache: it
 * names the hashed files) and the hashed files (immutable).
 */
export function appRoutes(): Route[] {
  const file = fileCache();
  const page = (path: AppPage): Route => {
    const params = path.match(/:\w+/g)?.map((name) => name.slice(1)) ?? [];
    return {
      method: 'get',
      path,
      operationId: `appPage${path.replace(/[^A-Za-z]+(\w)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase()) || 'Root'}`,
      summary:
        path === '/'
          ? 'The browser app (sign in with a session, or paste an API token)'
          : `The browser app at ${path}`,
      tags: ['App'],
      access: 'public',
      ...(params.length > 0
        ? {
            params: z.object(
              Object.fromEntries(
                params.map((name) => [name, name === 'id' ? decimalId() : z.string().max(64)]),
              ),
            ),
          }
        : {}),
      // What the app reads from the address (the e-mailed links' one-time token, a page's filters).
      ...(path === '/' ? {} : { query: z.object({ token: z.string().max(200).optional() }) }),
      success: {
        status: 200,
        description: 'The app’s index.html',
        schema: z.string(),
        contentType: 'text/html; charset=utf-8',
        headers: ['Cache-Control', 'ETag'],
      },
      problems: [503],
      otherResponses: { 304: NOT_MODIFIED },
      async run(ctx: AppContext) {
        const repeated = Object.keys(ctx.query).filter((name) => Array.isArray(ctx.query[name]));
        if (repeated.length > 0)
          throw new AppError('validation-error', {
            detail: 'A query parameter is given more than once',
            errors: repeated.map((name) => ({ path: name, message: 'must be given once' })),
          });
        const index = await file('index.html', 'text/html; charset=utf-8');
        if (!index) throw notBuilt();
        ctx.set('Cache-Control', 'no-cache');
        setContentSecurityPolicy(ctx, APP_POLICY, { origins: [] });
        // The e-mailed links carry a one-time token in the address: it goes to no other site.
        ctx.set('Referrer-Policy', 'no-referrer');
        await sendStoredBody(ctx, index);
      },
    };
  };
  const asset: Route = {
    method: 'get',
    path: '/assets/:file',
    operationId: 'appAsset',
    summary: 'A file of the browser app, named by its content’s hash (cached for a year)',
    tags: ['App'],
    access: 'public',
    params: z.object({ file: z.string().regex(ASSET_NAME, 'a file name of the app’s build') }),
    success: {
      status: 200,
      description: 'The file',
      schema: z.string(),
      contentType: 'text/javascript; charset=utf-8',
      headers: ['Cache-Control', 'ETag'],
    },
    problems: [404],
    otherResponses: { 304: NOT_MODIFIED },
    async run(ctx: AppContext) {
      const name = String(ctx.params?.file ?? '');
      const type = TYPES[extname(name)];
      const found = ASSET_NAME.test(name) && type ? await file(`assets/${name}`, type) : null;
      if (!found)
        throw new AppError('not-found', { detail: 'No such file in the app’s build (a newer build?)' });
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
      setContentSecurityPolicy(ctx, ["default-src 'none'"], { origins: [] });
      await sendStoredBody(ctx, found);
    },
  };
  return [...APP_PAGES.map(page), asset];
}
