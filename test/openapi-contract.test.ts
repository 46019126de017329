import { type IncomingHttpHeaders, request } from 'node:http';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNEL_TYPES } from '../libs/connectors/index.js';
import { createPackage, TestApi } from './support/harness.js';

type Schema = {
  type?: string;
  minimum?: number;
  uniqueItems?: boolean;
  items?: Schema;
  properties?: Record<string, Schema>;
};
interface Parameter {
  name: string;
  in: string;
  schema: Schema;
}
interface Operation {
  parameters: Parameter[];
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, unknown> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/** fetch() refuses to send TRACE. */
function traceRequest(url: string): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    request(url, { method: 'TRACE' }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    })
      .on('error', reject)
      .end();
  });
}

/** What schemathesis and openapi-python-client found wrong with the document, as assertions. */
describe('the OpenAPI contract as clients read it', () => {
  let api: TestApi;
  let token: string;
  let document: Document;
  beforeAll(async () => {
    api = await TestApi.start();
    ({ token } = await api.createOrganization(['admin']));
    document = (await api.request<Document>('GET', '/openapi.json')).body;
  });
  afterAll(() => api.stop());

  const operations = () =>
    Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ at: `${method} ${path}`, operation })),
    );

  it('documents every integer id of a path or query string as an integer of at least 1', () => {
    const ids = operations().flatMap(({ at, operation }) =>
      operation.parameters
        .filter((parameter) => /^(id|.*[a-z]Id)$/.test(parameter.name) && parameter.name !== 'publicId')
        .map((parameter) => ({ at: `${at} ${parameter.name}`, schema: parameter.schema })),
    );
    expect(ids.length).toBeGreaterThan(20);
    for (const { at, schema } of ids)
      expect({ at, ...schema }).toMatchObject({ at, type: 'integer', minimum: 1 });
  });

  it('documents ids in request bodies with minimum 1 and refuses 0', async () => {
    const { schemas } = document.components;
    expect(schemas.CustomerCreate?.properties?.packageId).toMatchObject({ type: 'integer', minimum: 1 });
    expect(schemas.WebsiteCreate?.properties?.customerId).toMatchObject({ type: 'integer', minimum: 1 });
    expect(schemas.WebsiteCreate?.properties?.notificationChannelIds?.items).toMatchObject({ minimum: 1 });
    expect(schemas.MaintenanceWindowCreate?.properties?.websiteId).toMatchObject({ minimum: 1 });
    expect(schemas.ChannelScopeInput?.properties?.customerId).toMatchObject({ minimum: 1 });
    const zero = await api.request('GET', '/api/customers/0', { token });
    expect(zero.status).toBe(400);
    expect(document.paths['/api/customers/{id}']?.get?.responses).toHaveProperty('400');
  });

  it('marks arrays that refuse repeats uniqueItems, and the refusal names the field', async () => {
    const { schemas } = document.components;
    for (const [schema, field] of [
      ['TokenCreate', 'scopes'],
      ['WebsiteCreate', 'regions'],
      ['WebsiteCreate', 'notificationChannelIds'],
      ['WebhookChannelCreate', 'events'],
      ['RecurrenceInput', 'byWeekday'],
    ] as const)
      expect({ schema, field, ...schemas[schema]?.properties?.[field] }).toMatchObject({ uniqueItems: true });
    const repeated = await api.request('POST', '/api/tokens', {
      token,
      body: { name: 'ci', scopes: ['read', 'read'] },
    });
    expect(repeated.status).toBe(400);
    expect(repeated.body).toMatchObject({
      type: '/problems/validation-error',
      errors: [{ path: 'scopes', message: 'items must be unique: item 1 repeats item 0' }],
    });
  });

  it('names a shared schema once: the channel scope is one component for every channel type', () => {
    const { schemas } = document.components;
    const scopes = Object.entries(schemas)
      .filter(([name]) => name.endsWith('ChannelCreate') && name !== 'ChannelCreate')
      .map(([, schema]) => schema.properties?.scope);
    expect(scopes).toHaveLength(CHANNEL_TYPES.length);
    for (const scope of scopes) expect(scope).toEqual({ $ref: '#/components/schemas/ChannelScopeInput' });
  });

  it('documents every content type and status of the public pages and badges', () => {
    const { paths } = document;
    const badge = paths['/badge/{publicId}/status.svg']?.get?.responses ?? {};
    expect(Object.keys(badge['200']?.content ?? {})).toEqual(['image/svg+xml; charset=utf-8']);
    for (const status of ['404', '429', '503'])
      expect(Object.keys(badge[status]?.content ?? {})).toEqual(['application/problem+json']);
    const page = paths['/status/{slug}']?.get?.responses ?? {};
    expect(Object.keys(page['200']?.content ?? {})).toEqual(['text/html; charset=utf-8']);
    expect(Object.keys(page['404']?.content ?? {})).toEqual(['text/html; charset=utf-8']);
    expect(page['304']?.headers).toHaveProperty('ETag');
    const data = paths['/status/{slug}.json']?.get?.responses ?? {};
    expect(Object.keys(data['404']?.content ?? {})).toEqual(['application/problem+json']);
    expect(data['304']?.headers).toHaveProperty('ETag');
  });

  it('answers TRACE and other methods a path does not take with 405 and Allow, OPTIONS per path', async () => {
    const trace = await traceRequest(`${api.api.url}/api/customers/1`);
    expect(trace.status).toBe(405);
    expect(trace.headers.allow).toBe('HEAD, GET, PATCH, DELETE, OPTIONS');
    expect(trace.headers['content-type']).toMatch(/^application\/problem\+json/);
    // `/check/batch` is its own path, not `/check/{websiteId}` with websiteId=batch.
    const options = await api.request('OPTIONS', '/api/maintenance-windows/check/batch');
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('POST, OPTIONS');
    const get = await api.request('GET', '/api/maintenance-windows/check/batch', { token });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');
    expect((await api.request('OPTIONS', '/api/maintenance-windows/check/7')).headers.get('allow')).toBe(
      'HEAD, GET, OPTIONS',
    );
  });

  it('echoes only the first ten bad parameters of a 15 KB query string, and counts the rest', async () => {
    const count = 1900;
    const query = Array.from({ length: count }, (_, index) => `p${index}=x`).join('&');
    expect(query.length).toBeGreaterThan(14_000);
    const res = await api.request<{ detail: string; errors: unknown[]; errorsOmitted: number }>(
      'GET',
      `/api/websites?${query}`,
      { token },
    );
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body).length).toBeLessThan(2_000);
    expect(res.body.errors).toHaveLength(10);
    expect(res.body.errorsOmitted).toBe(count - 10);
    expect(res.body.detail).toMatch(new RegExp(`p9 and ${count - 10} more$`));
  });

  // Schemathesis: GET /api/maintenance-windows?websiteId=<unknown> answered an undocumented 404.
  it('documents the answer to an unknown id in a list filter', async () => {
    const filters = operations().flatMap(({ at, operation }) => {
      const [method, path] = at.split(' ') as [string, string];
      const filter = operation.parameters.find(
        (p) => p.in === 'query' && /^(customer|website)Id$/.test(p.name),
      );
      return method === 'get' && !path.includes('{') && filter
        ? [{ path, filter: filter.name, operation }]
        : [];
    });
    expect(filters.map(({ path }) => path)).toEqual(
      expect.arrayContaining(['/api/maintenance-windows', '/api/websites/summaries']),
    );
    const undocumented: string[] = [];
    for (const { path, filter, operation } of filters) {
      const { status } = await api.request('GET', `${path}?${filter}=9007199254740990`, { token });
      if (!(String(status) in operation.responses)) undocumented.push(`${path}?${filter}: ${status}`);
    }
    expect(undocumented).toEqual([]);
  });

  // Schemathesis: an address the write took that the response's `format: email` refused.
  it('takes on write only e-mail addresses that its response schema takes', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    formats.default(ajv);
    const customerSchema = ajv.compile({
      $ref: '#/components/schemas/Customer',
      components: document.components,
    });
    const packageId = (await createPackage(api, token)).id;
    const edge = [`${'l'.repeat(64)}@example.com`, `o'neil+x@${'d'.repeat(63)}.example.com`];
    const created = await api.request('POST', '/api/customers', {
      token,
      body: {
        name: 'Mail edges',
        packageId,
        email: edge[0],
        notificationEmail: edge[1],
        reportSchedule: { frequency: 'monthly', recipients: edge },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(customerSchema(created.body), JSON.stringify(customerSchema.errors)).toBe(true);
    for (const refused of [`${'l'.repeat(65)}@example.com`, 'a@example-.com', `a@${'d'.repeat(64)}.io`]) {
      const answer = await api.request<{ errors: Array<{ path: string }> }>('POST', '/api/customers', {
        token,
        body: { name: 'Refused', packageId, reportSchedule: { frequency: 'monthly', recipients: [refused] } },
      });
      expect(answer.status, refused).toBe(400);
      expect(answer.body.errors.map((e) => e.path)).toEqual(['reportSchedule.recipients.0']);
    }
  });

  it('cuts a long echoed name short', async () => {
    const res = await api.request<{ errors: Array<{ path: string }> }>(
      'GET',
      `/api/websites?${'x'.repeat(5000)}=1`,
      {
        token,
      },
    );
    expect(res.status).toBe(400);
    expect(res.body.errors[0]?.path.length).toBeLessThanOrEqual(200);
  });
});
