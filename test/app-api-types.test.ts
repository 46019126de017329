import { readFileSync, writeFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from './support/harness.js';

/** The browser app's API types, generated from the served contract and committed (apps/web builds from them). */
const SCHEMA_TYPES = 'apps/web/src/api/schema.d.ts';
const HEADER =
  '// Generated from GET /openapi.json by openapi-typescript: UPDATE_API_TYPES=1 npx vitest run test/app-api-types.test.ts\n';

describe('the app’s API types', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.start();
  });
  afterAll(() => api?.stop());

  it('are what openapi-typescript makes of /openapi.json (a renamed field fails here, then the app’s type check)', async () => {
    const document = await api.request('GET', '/openapi.json');
    expect(document.status).toBe(200);
    const generated = HEADER + astToString(await openapiTS(JSON.stringify(document.body)));
    if (process.env.UPDATE_API_TYPES === '1') writeFileSync(SCHEMA_TYPES, generated);
    expect(readFileSync(SCHEMA_TYPES, 'utf8')).toBe(generated);
  });
});
