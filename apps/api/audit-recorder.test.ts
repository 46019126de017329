import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineRoute, type HttpMethod, type Route } from '../../libs/http/index.js';
import { answersAsView, resourceOf, viewOf } from './audit-recorder.js';

const LIST = z.array(z.unknown());
const route = (method: HttpMethod, path: string, schema: z.ZodType = z.unknown()): Route =>
  defineRoute({
    method,
    path,
    operationId: `${method} ${path}`,
    summary: path,
    tags: [],
    access: 'read',
    success: { status: 200, description: 'x', schema },
    handle: async () => undefined,
  });

const ROUTES = [
  route('get', '/api/websites', LIST),
  route('get', '/api/websites/:websiteRef'),
  route('get', '/api/websites/:websiteRef/check-config'),
  route('get', '/api/notification-channels/:id'),
  route('get', '/api/users', LIST),
  route('get', '/api/me'),
  route('get', '/api/me/sessions', LIST),
  route('get', '/api/maintenance-windows', LIST),
];

describe('viewOf: the GET that represents a write', () => {
  it.each<[HttpMethod, string, string | undefined, string | undefined]>([
    ['patch', '/api/websites/:websiteRef', 'same', '/api/websites/:websiteRef'],
    ['delete', '/api/websites/:websiteRef', 'same', '/api/websites/:websiteRef'],
    ['post', '/api/websites', 'created', '/api/websites/:websiteRef'],
    ['patch', '/api/websites/:websiteRef/check-config', 'same', '/api/websites/:websiteRef/check-config'],
    ['post', '/api/notification-channels/:id/rotate-secret', 'ancestor', '/api/notification-channels/:id'],
    ['patch', '/api/users/:id', 'listed', '/api/users'],
    ['delete', '/api/me/sessions/:handle', 'listed', '/api/me/sessions'],
    ['post', '/api/me/two-factor/confirm', 'ancestor', '/api/me'],
    ['delete', '/api/me/two-factor', 'ancestor', '/api/me'],
    // A list never stands for one thing.
    ['post', '/api/maintenance-windows/check/batch', undefined, undefined],
    ['post', '/api/auth/logout', undefined, undefined],
  ])('%s %s: %s %s', (method, path, kind, readPath) => {
    const view = viewOf(route(method, path), ROUTES);
    expect(view?.kind).toBe(kind);
    expect(view?.route.path).toBe(readPath);
  });
});

describe('answersAsView: a write whose answer is the representation after it', () => {
  const shared = z.object({ id: z.number() });
  const routes = [route('get', '/api/things/:id', shared), route('get', '/api/others/:id', shared)];
  const answers = (write: Route) => {
    const view = viewOf(write, routes);
    return view ? answersAsView(write, view) : undefined;
  };

  it("is a PATCH or a create answering the GET's own schema", () => {
    expect(answers(route('patch', '/api/things/:id', shared))).toBe(true);
    expect(answers(route('post', '/api/things', shared))).toBe(true);
  });

  it('is not a write answering another shape, nor one whose view is an ancestor', () => {
    expect(answers(route('patch', '/api/things/:id', z.object({ id: z.number() })))).toBe(false);
    expect(answers(route('post', '/api/things/:id/rotate', shared))).toBe(false);
  });
});

describe('resourceOf', () => {
  it.each([
    ['/api/websites/:websiteRef/check-config', 'websites'],
    ['/api/v1/customers', 'customers'],
    ['/api/auth/login', 'auth'],
    ['/api/me/two-factor', 'me'],
    ['/api/notification-channels/:id/rotate-secret', 'notification-channels'],
  ])('%s: %s', (path, resource) => {
    expect(resourceOf(path)).toBe(resource);
  });
});
