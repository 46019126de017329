import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createPackage, TestApi } from './support/harness.js';
import { createUser, signIn } from './support/people.js';
import { purchaseJourney, startTestShop, type TestShop } from './support/test-shop.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface Run {
  status: string;
  cause: string | null;
  evidence: {
    runId: string;
    steps: Array<{ name: string; outcome: string; durationMs: number | null }>;
    failedStep: number | null;
    screenshots: string[];
    trace: boolean;
    consoleErrors: string[];
    failedRequests: Array<{ url: string; status: number | null }>;
    vitals: Array<{ url: string; fcpMs: number | null }>;
  };
}

/** The shop's purchase, as the tests of browser journeys write it (every 10 minutes). */
const shopJourney = (shop: TestShop) => ({ ...purchaseJourney(shop), intervalSeconds: 600 });

describe('browser journeys through the API: written, refused, run now, their files per tenant', {
  timeout: 120_000,
}, () => {
  let api: TestApi;
  let shop: TestShop;
  let token: string;
  let websiteRef: string;
  let monitorId: number;
  let ownClient: string;
  let otherClient: string;
  /** Everything the API logged, at trace level. */
  let logs = '';

  beforeAll(async () => {
    shop = await startTestShop();
    api = await TestApi.start(
      { ALLOW_PRIVATE_TARGETS: 'true', LOG_LEVEL: 'trace' },
      new Writable({
        write(chunk, _encoding, done) {
          logs += chunk.toString();
          done();
        },
      }),
    );
    const created = await api.createOrganization(['admin']);
    token = created.token;
    const pkg = await createPackage(api, token);
    const customerId = await createCustomer(api, token, pkg.id, 'Shop owner');
    const otherCustomer = await createCustomer(api, token, pkg.id, 'Someone else');
    const website = await api.request<{ publicId: string }>('POST', '/api/websites', {
      token,
      body: { customerId, name: 'Tea Shop', url: `${shop.url}/` },
    });
    expect(website.status).toBe(201);
    websiteRef = website.body.publicId;
    ownClient = await signIn(
      api,
      (await createUser(api, created.organizationId, 'client', customerId)).email,
    );
    otherClient = await signIn(
      api,
      (await createUser(api, created.organizationId, 'client', otherCustomer)).email,
    );
  }, 60_000);
  afterAll(async () => {
    await api?.stop();
    await shop?.close();
  });

  it('refuses a journey that cannot run, naming the field, before anything is stored', async () => {
    const journey = shopJourney(shop);
    const cases: Array<[string, unknown[], string]> = [
      ['an unknown action', [{ action: 'teleport', url: '{{shop}}/' }], 'steps.0.action'],
      ['a missing field', [{ action: 'fill', locator: { by: 'label', text: 'Email' } }], 'steps.0.value'],
      [
        'a selector that does not parse',
        [
          { action: 'goto', url: '{{shop}}/' },
          { action: 'click', locator: { by: 'css', selector: 'div[' } },
        ],
        'steps.1.locator.selector',
      ],
      ['an undefined variable', [{ action: 'goto', url: '{{nowhere}}/' }], 'steps.0.url'],
      // A secret could stand for file:///etc/passwd: a URL may not begin with one.
      ['a URL a secret begins', [{ action: 'goto', url: '{{secret.PASSWORD}}' }], 'steps.0.url'],
      [
        'an undefined secret',
        [
          { action: 'goto', url: '{{shop}}/' },
          { action: 'fill', locator: { by: 'label', text: 'Email' }, value: '{{secret.NOPE}}' },
        ],
        'steps.1.value',
      ],
    ];
    for (const [what, steps, path] of cases) {
      const refused = await api.request<{ errors?: Array<{ path: string }> }>(
        'POST',
        `/api/websites/${websiteRef}/monitors`,
        { token, body: { ...journey, steps } },
      );
      expect(refused.status, what).toBe(400);
      expect(
        refused.body.errors?.map((error) => error.path),
        what,
      ).toContain(path);
    }
    const tooOften = await api.request('POST', `/api/websites/${websiteRef}/monitors`, {
      token,
      body: { ...journey, intervalSeconds: 60 },
    });
    expect(tooOften.status).toBe(403);
    const listed = await api.request<{ items: unknown[] }>('GET', `/api/websites/${websiteRef}/monitors`, {
      token,
    });
    expect(listed.body.items).toEqual([]);
  });

  it('stores a journey with its secret sealed, runs it now step by step, and it passes', async () => {
    const created = await api.request<{ id: number; secrets: Record<string, string> }>(
      'POST',
      `/api/websites/${websiteRef}/monitors`,
      { token, body: shopJourney(shop) },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    monitorId = created.body.id;
    expect(created.body.secrets).toEqual({ PASSWORD: '(set)' });
    expect(JSON.stringify(created.body)).not.toContain(shop.password);
    const run = await api.request<Run>('POST', `/api/monitors/${monitorId}/run`, { token });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    expect(run.body.status, run.body.cause ?? '').toBe('up');
    expect(run.body.evidence.steps.map((step) => step.outcome)).toEqual(Array(10).fill('passed'));
    expect(run.body.evidence.vitals.some((page) => page.url.endsWith('/search'))).toBe(true);
    expect(JSON.stringify(run.body)).not.toContain(shop.password);
  });

  it('a removed button is down naming the step, with the page’s screenshot, console error, failed request and a masked trace', async () => {
    shop.faults = { noBasketButton: true, consoleError: true, failingRequest: true, hostile: false };
    try {
      const run = await api.request<Run>('POST', `/api/monitors/${monitorId}/run`, { token });
      expect(run.status).toBe(200);
      expect(run.body.status).toBe('down');
      expect(run.body.cause).toBe('Step 9 (Add to basket): not done within 2 s');
      const { evidence } = run.body;
      expect(evidence.failedStep).toBe(8);
      expect(evidence.screenshots).toEqual(['failure']);
      expect(evidence.consoleErrors).toContain('Stock widget failed to load');
      expect(evidence.failedRequests).toContainEqual(
        expect.objectContaining({ url: `${shop.url}/api/stock`, status: 500 }),
      );
      expect(evidence.trace).toBe(true);

      const files = `/api/websites/${websiteRef}/results/${evidence.runId}`;
      const screenshot = await fetch(`${api.api.url}${files}/screenshot`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(screenshot.status).toBe(200);
      expect(screenshot.headers.get('content-type')).toBe('image/png');
      expect(
        Buffer.from(await screenshot.arrayBuffer())
          .subarray(0, 8)
          .equals(PNG_SIGNATURE),
      ).toBe(true);
      const trace = await fetch(`${api.api.url}${files}/trace`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(trace.status).toBe(200);
      const entries = unzipSync(new Uint8Array(await trace.arrayBuffer()));
      expect(Object.keys(entries).some((name) => name.endsWith('.trace'))).toBe(true);
      for (const [name, bytes] of Object.entries(entries))
        expect(Buffer.from(bytes).includes(shop.password), `${name} holds the password`).toBe(false);

      // The website's customer's client sees the files; another customer's is told nothing exists.
      const own = await fetch(`${api.api.url}${files}/screenshot`, { headers: { cookie: ownClient } });
      expect(own.status).toBe(200);
      for (const path of ['screenshot', 'trace']) {
        const foreign = await fetch(`${api.api.url}${files}/${path}`, { headers: { cookie: otherClient } });
        expect(foreign.status).toBe(404);
      }
      // A run id that is not this website's is not found either.
      const unknown = await fetch(
        `${api.api.url}/api/websites/${websiteRef}/results/${'0'.repeat(24)}/screenshot`,
        { headers: { authorization: `Bearer ${token}` } },
      );
      expect(unknown.status).toBe(404);
    } finally {
      shop.faults = { noBasketButton: false, consoleError: false, failingRequest: false, hostile: false };
    }
  });

  it('a test recorded on the shop (as codegen writes it) converts to steps that pass, its password a secret', async () => {
    // The recording as written against the shop on port 4173, and the password typed then.
    const recorded = readFileSync('test/fixtures/playwright/test-shop.spec.ts.txt', 'utf8')
      .replaceAll('http://127.0.0.1:4173', shop.url)
      .replaceAll('recorded-password', shop.password);
    const converted = await api.request<{
      steps: unknown[];
      options: { secrets?: Record<string, string> };
      unconverted: unknown[];
    }>('POST', '/api/browser-steps/from-playwright', { token, body: { code: recorded } });
    expect(converted.status).toBe(200);
    expect(converted.body.unconverted).toEqual([]);
    expect(JSON.stringify(converted.body.steps)).not.toContain(shop.password);
    expect(converted.body.options.secrets).toEqual({ PASSWORD: shop.password });
    const created = await api.request<{ id: number }>('POST', `/api/websites/${websiteRef}/monitors`, {
      token,
      body: {
        kind: 'browser',
        name: 'Recorded checkout',
        steps: converted.body.steps,
        secrets: converted.body.options.secrets,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const run = await api.request<Run>('POST', `/api/monitors/${created.body.id}/run`, { token });
    expect(run.body.status, run.body.cause ?? '').toBe('up');
    expect(run.body.evidence.steps.every((step) => step.outcome === 'passed')).toBe(true);
  });

  it('the password typed into the form is in no log line and no stored document', async () => {
    expect(logs.length).toBeGreaterThan(1000);
    expect(logs).not.toContain(shop.password);
    for (const { name } of await api.db.listCollections().toArray()) {
      // The runs' files are images and zips: the trace's text is checked above, entry by entry.
      if (name === 'run_artifacts') continue;
      const documents = JSON.stringify(await api.db.collection(name).find({}).toArray());
      expect(documents, name).not.toContain(shop.password);
    }
  });

  it('serves the format’s JSON Schema and converts a recording, naming what does not convert', async () => {
    const schema = await api.request<{
      $schema?: string;
      $defs?: { BrowserJourney?: { properties?: Record<string, unknown> } };
    }>('GET', '/api/browser-steps/schema', { token });
    expect(schema.status).toBe(200);
    expect(schema.body.$schema).toContain('2020-12');
    expect(Object.keys(schema.body.$defs?.BrowserJourney?.properties ?? {})).toContain('steps');
    const code = readFileSync('test/fixtures/playwright/contact-form.spec.ts.txt', 'utf8');
    const converted = await api.request<{
      steps: unknown[];
      unconverted: Array<{ line: number; reason: string }>;
    }>('POST', '/api/browser-steps/from-playwright', { token, body: { code } });
    expect(converted.status).toBe(200);
    expect(converted.body.steps.length).toBeGreaterThan(2);
    expect(converted.body.unconverted.every((line) => line.line > 0 && line.reason.length > 0)).toBe(true);
    const empty = await api.request<{ errors?: Array<{ path: string }> }>(
      'POST',
      '/api/browser-steps/from-playwright',
      { token, body: { code: '' } },
    );
    expect(empty.status).toBe(400);
    expect(empty.body.errors?.[0]?.path).toBe('code');
  });
});
