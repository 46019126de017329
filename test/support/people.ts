import { randomUUID } from 'node:crypto';
import { OrganizationRepository } from '../../libs/auth/index.js';
import type { Role } from '../../libs/contract/index.js';
import { hashPassword, UserRepository } from '../../libs/people/index.js';
import type { RequestOptions, TestApi, TestResponse } from './harness.js';

/** A password the policy accepts, the same for every test user (hashing costs ~0.1 s). */
export const TEST_PASSWORD = 'tangerine-orbit-47-kettle';
let testPasswordHash: Promise<string> | undefined;

/** A user stored directly (users are made by the CLI or, later, invitations), with TEST_PASSWORD. */
export async function createUser(
  api: TestApi,
  organizationId: number,
  role: Role,
  customerId: number | null = null,
): Promise<{ id: number; email: string }> {
  testPasswordHash ??= hashPassword(TEST_PASSWORD);
  const email = `${role}-${randomUUID().slice(0, 8)}@example.com`;
  const user = await new UserRepository(api.db).create(
    { organizationId, email, name: `A ${role}`, role, customerId },
    await testPasswordHash,
  );
  return { id: user.id, email };
}

export async function createOrganizationId(api: TestApi): Promise<number> {
  return (await new OrganizationRepository(api.db).create(`org ${randomUUID().slice(0, 6)}`)).id;
}

/** The `name=…` pair of a response's Set-Cookie for `name`, or undefined. */
export function cookieOf(response: { headers: Headers }, name: string): string | undefined {
  const header = response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${name}=`));
  return header?.split(';')[0];
}

/** The `webmon_session=…` pair of a response's Set-Cookie, or undefined. */
export const sessionCookieOf = (response: TestResponse) => cookieOf(response, 'webmon_session');

/** Signs in and answers the cookie to send back (`webmon_session=…`). */
export async function signIn(api: TestApi, email: string, password = TEST_PASSWORD): Promise<string> {
  const res = await api.request('POST', '/api/auth/login', { body: { email, password } });
  const cookie = sessionCookieOf(res);
  if (res.status !== 200 || !cookie)
    throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  return cookie;
}

/** The origin browsers' writes come from: PUBLIC_URL's when it is set, else the API's own. */
export const siteOrigin = (api: TestApi) =>
  api.config.PUBLIC_URL ? new URL(api.config.PUBLIC_URL).origin : api.api.url;

/** A request with the session cookie; writes carry this site's Origin unless the headers say otherwise. */
export function withCookie<T = Record<string, unknown>>(
  api: TestApi,
  cookie: string,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<TestResponse<T>> {
  const origin: Record<string, string> = ['GET', 'HEAD'].includes(method) ? {} : { origin: siteOrigin(api) };
  return api.request<T>(method, path, { ...options, headers: { cookie, ...origin, ...options.headers } });
}

/** A problem document without its request id: what two answers that should match are compared by. */
export function problemOf(body: unknown): Record<string, unknown> {
  const { requestId: _id, ...rest } = body as Record<string, unknown>;
  return rest;
}
