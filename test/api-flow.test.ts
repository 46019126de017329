import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT, type AccountApi, startAccountApi } from './support/account-api.js';
import { createCustomer, createPackage, until } from './support/harness.js';
import { type MonitoringStack, startMonitoringStack } from './support/monitoring-stack.js';

interface Problem {
  status: number;
  errors?: Array<{ path: string; message: string }>;
}
interface FlowView {
  id: number;
  kind: string;
  name: string;
  status: string;
  lastCause: string | null;
  secrets?: Record<string, string>;
}
interface RunView {
  status: string;
  cause: string | null;
  timings: Record<string, number | null>;
  evidence: {
    steps: Array<{
      step: number;
      name: string;
      status: number | null;
      outcome: string;
      extracted?: string[];
    }>;
    notRun: number;
    failedStep: null | {
      step: number;
      name: string;
      code: string;
      request: { method: string; url: string; headers: Record<string, string>; body: string | null };
      answer: { statusLine: string | null; headers: Record<string, string>; body: { text?: string } | null };
    };
  };
}

type Step = Record<string, unknown>;

const { password: PASSWORD, token: TOKEN, session: SESSION } = ACCOUNT;

describe('API flows end to end: sign in, a token from the JSON body, the account read with it', {
  timeout: 120_000,
}, () => {
  let stack: MonitoringStack;
  let account: AccountApi;
  let websiteId: number;

  beforeAll(async () => {
    account = await startAccountApi();
    stack = await startMonitoringStack('api-flow-node');
    const website = await stack.api.request<{ id: number }>('POST', '/api/websites', {
      token: stack.token,
      body: { customerId: stack.customerId, name: 'Accounts', url: `${account.url}/`, checkInterval: 60 },
    });
    expect(website.status).toBe(201);
    websiteId = website.body.id;
  });
  afterAll(async () => {
    await stack?.stop();
    account?.close();
  });

  const request = <T>(method: string, path: string, body?: unknown) =>
    stack.api.request<T>(method, path, { token: stack.token, ...(body === undefined ? {} : { body }) });
  const create = (body: Record<string, unknown>) =>
    request<FlowView & Problem>('POST', `/api/websites/${websiteId}/monitors`, { kind: 'api-flow', ...body });
  const run = async (id: number) => (await request<RunView>('POST', `/api/monitors/${id}/run`)).body;

  /** Sign in, then read the account; `extractPath` is where the token is looked for. */
  const signInThenMe = (extractPath = '$.token') => ({
    variables: { base: account.url },
    secrets: { PASSWORD },
    steps: <[Step, Step]>[
      {
        name: 'Sign in',
        request: {
          method: 'POST',
          url: '{{base}}/login',
          headers: { 'Content-Type': 'application/json' },
          body: '{"email": "ada@example.com", "password": "{{secret.PASSWORD}}"}',
        },
        extract: [{ name: 'token', from: 'jsonBody', path: extractPath }],
      },
      {
        name: 'Me',
        request: { url: '{{base}}/me', headers: { Authorization: 'Bearer {{token}}' } },
        assertions: [{ source: 'jsonBody', path: '$.name', operator: 'equals', value: 'Ada' }],
      },
    ],
  });

  it('passes: the token extracted, sent with the session cookie, the JSONPath assertion holds; the worker agrees', async () => {
    const made = await create({ name: 'Account', intervalSeconds: 10, ...signInThenMe() });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ kind: 'api-flow', name: 'Account', secrets: { PASSWORD: '(set)' } });
    const result = await run(made.body.id);
    expect(result, JSON.stringify(result)).toMatchObject({ status: 'up', cause: null });
    expect(result.evidence.steps).toMatchObject([
      { step: 1, name: 'Sign in', status: 200, outcome: 'passed', extracted: ['token'] },
      { step: 2, name: 'Me', status: 200, outcome: 'passed' },
    ]);
    expect(result.timings.step1Ms).toBeGreaterThan(0);
    expect(result.timings.totalMs).toBeGreaterThan(0);

    // The worker runs it on its own (the slow lane) and stores what it found.
    await until(
      async () => (await request<FlowView>('GET', `/api/monitors/${made.body.id}`)).body.status === 'up',
      40_000,
    );
    const results = await request<{ items: Array<{ kind: string; status: string }> }>(
      'GET',
      `/api/monitors/${made.body.id}/results`,
    );
    expect(results.body.items[0]).toMatchObject({ kind: 'api-flow', status: 'up' });
    const stored = await stack.api.db.collection('website_monitors').findOne({ id: made.body.id });
    expect(JSON.stringify([stored, results.body])).not.toContain(PASSWORD);
  });

  it('a value to extract that is missing is named, and the flow stops there', async () => {
    const made = await create({
      name: 'Missing token',
      intervalSeconds: 3600,
      ...signInThenMe('$.accessToken'),
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const result = await run(made.body.id);
    expect(result).toMatchObject({
      status: 'down',
      cause: "step 1 'Sign in': $.accessToken not found in the JSON body",
      evidence: { notRun: 1, failedStep: { step: 1, name: 'Sign in', code: 'EXTRACTION_FAILED' } },
    });
  });

  it('a failing step is named with its request and answer; no secret or credential is in the result or stored', async () => {
    const flow = signInThenMe();
    const [signIn, me] = flow.steps;
    // The session cookie is sent, the token is not: the account answers 401.
    const made = await create({
      name: 'Without the token',
      intervalSeconds: 10,
      ...flow,
      steps: [
        signIn,
        {
          ...me,
          request: {
            url: '{{base}}/me',
            headers: { 'X-Token-Hint': '{{token}}', 'X-Password': '{{secret.PASSWORD}}' },
          },
        },
      ],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const result = await run(made.body.id);
    expect(result).toMatchObject({
      status: 'down',
      cause: `step 2 'Me': GET ${account.url}/me answered 401 Unauthorized, expected 200-299`,
      evidence: {
        failedStep: {
          step: 2,
          code: 'UNEXPECTED_STATUS',
          request: { method: 'GET', url: `${account.url}/me`, headers: { 'X-Token-Hint': '[redacted]' } },
          answer: { statusLine: '401 Unauthorized' },
        },
      },
    });
    // The server echoed the token, the session cookie and the password: each blanked where it stood.
    expect(result.evidence.failedStep?.answer.body?.text).toContain('not signed in');
    expect(JSON.parse(result.evidence.failedStep?.answer.body?.text ?? '{}')).toEqual({
      error: 'not signed in',
      got: { authorization: null, cookie: 'session=[redacted]', hint: '[redacted]', password: '[redacted]' },
    });

    // The worker's stored results, the monitor's cause and the stored monitor hold neither the
    // password (sealed, and echoed by the server) nor the token (a credential the flow extracted).
    await until(
      async () => (await request<FlowView>('GET', `/api/monitors/${made.body.id}`)).body.status === 'down',
      40_000,
    );
    const results = await request<{ items: unknown[] }>('GET', `/api/monitors/${made.body.id}/results`);
    const view = await request<FlowView>('GET', `/api/monitors/${made.body.id}`);
    const stored = await stack.api.db.collection('website_monitors').findOne({ id: made.body.id });
    const log = await stack.api.db.collection('monitor_log').find({ monitorId: made.body.id }).toArray();
    expect(view.body.lastCause).toMatch(/^step 2 'Me'/);
    const everything = JSON.stringify([result, results.body, view.body, stored, log]);
    expect(everything).not.toContain(PASSWORD);
    expect(everything).not.toContain(TOKEN);
    expect(everything).not.toContain(SESSION);
  });

  it('refuses what cannot run when written, naming steps.<i>.<field>', async () => {
    const flow = signInThenMe();
    const [signIn, me] = flow.steps;
    const beforeExtraction = await create({ ...flow, steps: [me, signIn] });
    expect(beforeExtraction.status).toBe(400);
    expect(beforeExtraction.body.errors).toContainEqual({
      path: 'steps.0.request.headers.Authorization',
      message: expect.stringContaining('{{token}} is not a variable or a value an earlier step extracts'),
    });
    const unknownSecret = await create({
      ...flow,
      steps: [
        { ...signIn, request: { method: 'POST', url: '{{base}}/login', body: '{{secret.PASWORD}}' } },
        me,
      ],
    });
    expect(unknownSecret.status).toBe(400);
    expect(unknownSecret.body.errors?.[0]).toMatchObject({ path: 'steps.0.request.body' });
    const inClear = await create({
      ...flow,
      steps: [signIn, { ...me, request: { url: '{{base}}/me', headers: { Authorization: 'Bearer abc' } } }],
    });
    expect(inClear.status).toBe(400);
    expect(inClear.body.errors?.[0]?.path).toBe('steps.1.request.headers.Authorization');
    const badPath = await create({
      ...flow,
      steps: [{ ...signIn, extract: [{ name: 'token', from: 'jsonBody', path: '$[' }] }, me],
    });
    expect(badPath.status).toBe(400);
    expect(badPath.body.errors?.[0]?.path).toBe('steps.0.extract.0.path');

    // A PATCH is held to the same rules; "(set)" keeps the stored secret.
    const made = await create({ name: 'Patched', intervalSeconds: 3600, ...flow });
    const patched = await request<FlowView & Problem>('PATCH', `/api/monitors/${made.body.id}`, {
      steps: [me],
    });
    expect(patched.status).toBe(400);
    expect(patched.body.errors?.[0]?.path).toBe('steps.0.request.headers.Authorization');
    const renamed = await request<FlowView>('PATCH', `/api/monitors/${made.body.id}`, {
      secrets: { PASSWORD: '(set)' },
      steps: [signIn, { ...me, name: 'Account' }],
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect((await run(made.body.id)).status).toBe('up');
  });

  it('export names its secrets and keeps their values; the monitoring file applies it from the environment, then plans no change', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'webmon-api-flow-'));
    const webmon = async (args: string[]) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', 'apps/cli/webmon.ts', ...args], {
        env: {
          ...process.env,
          WEBMON_URL: stack.api.api.url,
          WEBMON_TOKEN: stack.token,
          FLOW_PASSWORD: PASSWORD,
        },
      }).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (error: { code: number; stdout: string; stderr: string }) => ({
          code: error.code,
          stdout: `${error.stdout}${error.stderr}`,
        }),
      );
    const fileOf = (plan: string) => {
      const { secrets: _secrets, ...flow } = signInThenMe();
      const [signIn, me] = flow.steps;
      const monitor = {
        kind: 'api-flow',
        name: 'Account',
        ...flow,
        steps: [
          signIn,
          { ...me, assertions: [{ source: 'jsonBody', path: '$.plan', operator: 'equals', value: plan }] },
        ],
        secrets: { PASSWORD: { env: 'FLOW_PASSWORD' } },
      };
      const path = join(dir, 'monitoring.json');
      // YAML takes JSON as it is: the placeholders' braces need no quoting there.
      writeFileSync(
        path,
        JSON.stringify({
          version: 1,
          packages: [{ key: 'flows', displayName: 'Flows' }],
          customers: [
            {
              name: 'Flows customer',
              package: 'flows',
              websites: [{ name: 'Accounts API', url: `${account.url}/app`, monitors: [monitor] }],
            },
          ],
        }),
      );
      return path;
    };
    try {
      const applied = await webmon(['apply', '-f', fileOf('pro')]);
      expect(applied.code, applied.stdout).toBe(0);
      expect(applied.stdout).toContain('create API flow "Account"');
      const again = await webmon(['plan', '-f', fileOf('pro')]);
      expect(again.code, again.stdout).toBe(0);
      expect(again.stdout).toContain('No changes');
      const changed = await webmon(['plan', '-f', fileOf('free')]);
      expect(changed.code, changed.stdout).toBe(2);
      expect(changed.stdout).toContain('~ change API flow "Account" (Accounts API)');

      const exported = await request<{ monitors: Array<Record<string, unknown>> }>('GET', '/api/exports');
      const flow = exported.body.monitors.find(
        (m) => m.kind === 'api-flow' && m.name === 'Account' && m.websiteId !== websiteId,
      );
      expect(flow).toMatchObject({ secretNames: { secrets: ['PASSWORD'] }, secrets: {} });
      expect(JSON.stringify(exported.body)).not.toContain(PASSWORD);
      // The password came from the environment, sealed, and signs in.
      expect((await run(flow?.id as number)).status).toBe('up');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the SSRF guard judges every step when written (an address a variable names too) and again when it runs', async () => {
    const guarded = await startMonitoringStack('api-flow-guarded', {}, { ALLOW_PRIVATE_TARGETS: 'false' });
    try {
      const site = await guarded.api.request<{ id: number }>('POST', '/api/websites', {
        token: guarded.token,
        body: { customerId: guarded.customerId, name: 'Public', url: 'https://public.example/' },
      });
      const post = (body: Record<string, unknown>) =>
        guarded.api.request<FlowView & Problem>('POST', `/api/websites/${site.body.id}/monitors`, {
          token: guarded.token,
          body: { kind: 'api-flow', ...body },
        });
      const refused = await post({
        variables: { internal: 'http://10.0.0.5:8080' },
        steps: [
          { name: 'Public', request: { url: 'https://public.example/' } },
          { name: 'Internal', request: { url: '{{internal}}/admin' } },
        ],
      });
      expect(refused.status).toBe(400);
      expect(refused.body.errors?.[0]).toMatchObject({ path: 'steps.1.request.url' });
      // A name known only when it runs resolves to the loopback: refused then, nothing sent.
      const later = await post({
        steps: [{ name: 'Local', request: { url: `${account.url.replace('127.0.0.1', 'localhost')}/me` } }],
      });
      expect(later.status, JSON.stringify(later.body)).toBe(201);
      const ran = await guarded.api.request<RunView>('POST', `/api/monitors/${later.body.id}/run`, {
        token: guarded.token,
      });
      expect(ran.body).toMatchObject({
        status: 'down',
        evidence: { failedStep: { code: 'BLOCKED_TARGET' } },
      });
    } finally {
      await guarded.stop();
    }
  });

  it('the package bounds steps per journey and API flows per website; a package without apiFlows refuses them', async () => {
    const small = await createPackage(stack.api, stack.token, {
      limits: { maxStepsPerJourney: 1, maxApiFlowsPerWebsite: 1 },
    });
    const none = await createPackage(stack.api, stack.token, { features: { apiFlows: false } });
    const siteOf = async (packageId: number) => {
      const customerId = await createCustomer(stack.api, stack.token, packageId, `Customer ${packageId}`);
      const site = await request<{ id: number }>('POST', '/api/websites', {
        customerId,
        name: 'Small',
        url: `${account.url}/`,
      });
      return site.body.id;
    };
    const smallSite = await siteOf(small.id);
    const post = (site: number, body: Record<string, unknown>) =>
      request<Problem>('POST', `/api/websites/${site}/monitors`, { kind: 'api-flow', ...body });
    const tooLong = await post(smallSite, signInThenMe());
    expect(tooLong.status).toBe(403);
    expect(tooLong.body.errors?.[0]?.path).toBe('steps');
    const one = {
      steps: [{ name: 'Me', request: { url: `${account.url}/me` }, expectedStatusCodes: ['401'] }],
    };
    expect((await post(smallSite, one)).status).toBe(201);
    expect((await post(smallSite, one)).status).toBe(409);
    expect((await post(await siteOf(none.id), one)).status).toBe(403);
  });
});
