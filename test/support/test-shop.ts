import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the shop does wrong on purpose (each off by default): a test sets them between runs. */
export interface ShopFaults {
  /** The product page has no "Add to basket" button. */
  noBasketButton: boolean;
  /** The product page logs an error to the console. */
  consoleError: boolean;
  /** The product page fetches `/api/stock`, which answers 500. */
  failingRequest: boolean;
  /**
   * The product page reaches where a monitor must not: an image from 169.254.169.254, a fetch to
   * 127.0.0.2 (on the shop's port) and a link through `/out`, which redirects to 10.0.0.5.
   */
  hostile: boolean;
}

export interface TestShop {
  url: string;
  /** The account that signs in. */
  email: string;
  password: string;
  faults: ShopFaults;
  /** How long the search's API call takes (the journey's "one slow API call"). */
  searchDelayMs: number;
  /** Requests the shop answered, by path (a test sees what a run asked for). */
  requests: Map<string, number>;
  /**
   * Told of each answer once sent, with when its request arrived and when its answer ended
   * (`performance.now()`): a benchmark sums the time a journey waited on the shop. None by default.
   */
  onAnswered?: (answer: { method: string; path: string; startedAt: number; endedAt: number }) => void;
  close(): Promise<void>;
}

const PRODUCTS = [
  { id: 1, name: 'Blue Teapot', price: '24.00' },
  { id: 2, name: 'Green Teapot', price: '26.00' },
  { id: 3, name: 'Tea Cups (set of 4)', price: '18.00' },
];

function page(title: string, body: string, script = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><header><a href="/">Tea Shop</a> <a href="/basket" id="basket-link">Basket (<span id="basket-count">0</span>)</a></header>
<main>${body}</main>${script ? `<script>${script}</script>` : ''}</body></html>`;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const cookieOf = (req: IncomingMessage, name: string) =>
  (req.headers.cookie ?? '')
    .split(';')
    .map((part) => part.trim().split('='))
    .find(([key]) => key === name)?.[1];

/**
 * A small shop on 127.0.0.1 for browser journeys and API flows: sign-in with a session cookie, a
 * search rendered by JavaScript from a slow API call, a basket, a checkout form — and faults a test
 * switches on (a missing button, a console error, a failing request, requests to refused addresses).
 */
export async function startTestShop(): Promise<TestShop> {
  const sessions = new Map<string, { email: string; basket: number[] }>();
  const shop: TestShop = {
    url: '',
    email: 'buyer@shop.test',
    password: `pw-${randomBytes(6).toString('hex')}`,
    faults: { noBasketButton: false, consoleError: false, failingRequest: false, hostile: false },
    searchDelayMs: 300,
    requests: new Map(),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const sessionOf = (req: IncomingMessage) => sessions.get(cookieOf(req, 'shop_session') ?? '');

  const send = (res: ServerResponse, status: number, type: string, body: string, headers = {}) => {
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
    res.end(body);
  };
  const html = (res: ServerResponse, body: string) => send(res, 200, 'text/html; charset=utf-8', body);
  const json = (res: ServerResponse, status: number, value: unknown, headers = {}) =>
    send(res, status, 'application/json', JSON.stringify(value), headers);

  const server = createServer((req, res) => {
    const startedAt = performance.now();
    const url = new URL(req.url ?? '/', 'http://shop.test');
    shop.requests.set(url.pathname, (shop.requests.get(url.pathname) ?? 0) + 1);
    res.once('finish', () =>
      shop.onAnswered?.({
        method: req.method ?? 'GET',
        path: url.pathname,
        startedAt,
        endedAt: performance.now(),
      }),
    );
    void route(req, res, url).catch(() => send(res, 500, 'text/plain', 'error'));
  });

  async function route(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const session = sessionOf(req);
    const countScript = `fetch('/api/basket').then(r => r.json()).then(b => {
      document.getElementById('basket-count').textContent = String(b.items.length); });`;
    switch (`${req.method} ${url.pathname}`) {
      case 'GET /':
        return html(
          res,
          page(
            'Tea Shop',
            `<h1>Welcome to the Tea Shop</h1>${session ? `<p>Signed in as ${session.email}</p>` : '<a href="/sign-in">Sign in</a>'}
<a href="/search">Search</a>`,
            countScript,
          ),
        );
      case 'GET /sign-in':
        return html(
          res,
          page(
            'Sign in',
            `<h1>Sign in</h1><form method="post" action="/sign-in">
<label>Email <input name="email" type="email" autocomplete="username"></label>
<label>Password <input name="password" type="password" autocomplete="current-password"></label>
<button type="submit">Sign in</button></form>`,
          ),
        );
      case 'POST /sign-in': {
        const form = new URLSearchParams(await readBody(req));
        if (form.get('email') !== shop.email || form.get('password') !== shop.password)
          return send(
            res,
            401,
            'text/html; charset=utf-8',
            page('Sign in', '<p role="alert">Wrong email or password</p>'),
          );
        const id = randomBytes(16).toString('hex');
        sessions.set(id, { email: shop.email, basket: [] });
        return send(res, 303, 'text/plain', '', {
          location: '/',
          'set-cookie': `shop_session=${id}; Path=/; HttpOnly; SameSite=Lax`,
        });
      }
      case 'POST /api/sign-in': {
        const body = JSON.parse((await readBody(req)) || '{}') as { email?: string; password?: string };
        if (body.email !== shop.email || body.password !== shop.password)
          return json(res, 401, { error: 'wrong' });
        const id = randomBytes(16).toString('hex');
        sessions.set(id, { email: shop.email, basket: [] });
        return json(
          res,
          200,
          { token: id, user: { email: shop.email } },
          {
            'set-cookie': `shop_session=${id}; Path=/; HttpOnly`,
          },
        );
      }
      case 'GET /api/me': {
        const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
        const who = sessions.get(bearer ?? '') ?? session;
        return who
          ? json(res, 200, { email: who.email, basket: who.basket.length })
          : json(res, 401, { error: 'sign in' });
      }
      case 'GET /search':
        return html(
          res,
          page(
            'Search',
            `<h1>Search</h1><label>Search products <input id="q" type="search"></label>
<button id="go" type="button">Search</button><ul id="results" aria-label="Results"></ul>`,
            `${countScript}
document.getElementById('go').addEventListener('click', async () => {
  const q = document.getElementById('q').value;
  const found = await (await fetch('/api/search?q=' + encodeURIComponent(q))).json();
  document.getElementById('results').innerHTML = found.map(p =>
    '<li><a href="/products/' + p.id + '">' + p.name + '</a> ' + p.price + '</li>').join('') || '<li>No results</li>';
});`,
          ),
        );
      case 'GET /api/search': {
        await new Promise((resolve) => setTimeout(resolve, shop.searchDelayMs));
        const q = (url.searchParams.get('q') ?? '').toLowerCase();
        return json(
          res,
          200,
          PRODUCTS.filter((p) => p.name.toLowerCase().includes(q)),
        );
      }
      case 'GET /api/basket':
        return json(res, 200, { items: session?.basket ?? [] });
      case 'POST /api/basket': {
        if (!session) return json(res, 401, { error: 'sign in' });
        const { productId } = JSON.parse((await readBody(req)) || '{}') as { productId?: number };
        if (PRODUCTS.some((p) => p.id === productId)) session.basket.push(productId as number);
        return json(res, 200, { items: session.basket });
      }
      case 'GET /api/stock':
        return json(res, 500, { error: 'stock service down' });
      case 'GET /out':
        return send(res, 302, 'text/plain', '', { location: 'http://10.0.0.5/' });
      case 'GET /checkout':
        return html(
          res,
          page(
            'Checkout',
            `<h1>Checkout</h1><form method="post" action="/checkout">
<label>Full name <input name="name" required></label>
<label>Country <select name="country"><option value="">Choose…</option><option>Germany</option><option>France</option></select></label>
<label><input type="checkbox" name="terms" required> I accept the terms</label>
<button type="submit">Place order</button></form>`,
            countScript,
          ),
        );
      case 'POST /checkout': {
        const form = new URLSearchParams(await readBody(req));
        const ok = session && session.basket.length > 0 && form.get('name') && form.get('terms') === 'on';
        return html(
          res,
          page(
            ok ? 'Order placed' : 'Checkout',
            ok ? '<h1>Thank you for your order</h1>' : '<p role="alert">Your basket is empty</p>',
          ),
        );
      }
    }
    const product = /^\/products\/(\d+)$/.exec(url.pathname);
    const found = product && PRODUCTS.find((p) => p.id === Number(product[1]));
    if (req.method === 'GET' && found) {
      const { faults } = shop;
      const port = (server.address() as AddressInfo).port;
      return html(
        res,
        page(
          found.name,
          `<h1>${found.name}</h1><p class="price">${found.price}</p>
${faults.noBasketButton ? '' : `<button id="add" type="button">Add to basket</button>`}
<p id="added" hidden>Added to your basket</p><a href="/checkout">Checkout</a>
${faults.hostile ? `<img alt="" src="http://169.254.169.254/latest/meta-data.png"><a href="/out">Elsewhere</a>` : ''}`,
          `${countScript}
${faults.consoleError ? `console.error('Stock widget failed to load');` : ''}
${faults.failingRequest ? `fetch('/api/stock').catch(() => {});` : ''}
${faults.hostile ? `fetch('http://127.0.0.2:${port}/api/basket').catch(() => {});` : ''}
const add = document.getElementById('add');
if (add) add.addEventListener('click', async () => {
  const answer = await fetch('/api/basket', { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ productId: ${found.id} }) });
  const basket = await answer.json();
  document.getElementById('basket-count').textContent = String(basket.items.length);
  document.getElementById('added').hidden = false;
});`,
        ),
      );
    }
    send(res, 404, 'text/html; charset=utf-8', page('Not found', '<h1>Not found</h1>'));
  }

  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  shop.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return shop;
}

/** A step of a journey as written (the API's and the format's input). */
type Step = Record<string, unknown>;

/** Signing in to the shop as a person does: the form, the password a secret (`{{secret.PASSWORD}}`). */
export function signInSteps(shop: Pick<TestShop, 'email'>): Step[] {
  return [
    { action: 'goto', url: '{{shop}}/sign-in' },
    { action: 'fill', locator: { by: 'label', text: 'Email' }, value: shop.email },
    { action: 'fill', locator: { by: 'label', text: 'Password' }, value: '{{secret.PASSWORD}}' },
    { action: 'click', locator: { by: 'role', role: 'button', name: 'Sign in' } },
  ];
}

/** What a journey on the shop runs with: its address a variable, its password a secret. */
export const shopPlaceholders = (shop: Pick<TestShop, 'url' | 'password'>) => ({
  variables: { shop: shop.url },
  secrets: { PASSWORD: shop.password },
});

/**
 * The purchase as a monitor's create takes it: sign in, search, open the Blue Teapot, "Add to
 * basket" (step 9, named, 2 s: the step that fails when `noBasketButton` is set), the basket count.
 */
export function purchaseJourney(shop: Pick<TestShop, 'url' | 'email' | 'password'>) {
  return {
    kind: 'browser',
    name: 'Buy a teapot',
    intervalSeconds: 3600,
    timeoutSeconds: 60,
    ...shopPlaceholders(shop),
    steps: [
      ...signInSteps(shop),
      { action: 'goto', url: '{{shop}}/search' },
      { action: 'fill', locator: { by: 'label', text: 'Search products' }, value: 'blue' },
      { action: 'click', locator: { by: 'role', role: 'button', name: 'Search' } },
      { action: 'click', locator: { by: 'role', role: 'link', name: 'Blue Teapot' } },
      {
        name: 'Add to basket',
        action: 'click',
        locator: { by: 'role', role: 'button', name: 'Add to basket' },
        timeoutMs: 2000,
      },
      {
        action: 'expect',
        that: 'text',
        locator: { by: 'css', selector: '#basket-count' },
        text: { equals: '1' },
      },
    ],
  };
}
