import { describe, expect, it } from 'vitest';
import { createWebsiteBody } from '../../../../libs/websites/website.schema.js';
import {
  type ApiFlowStep,
  errorsUnder,
  HEADER_NAME_REFUSAL,
  secretsOf,
  stepDraft,
  stepOf,
} from './api-flow-drafts.js';

const signIn: ApiFlowStep = {
  name: 'Sign in',
  request: {
    method: 'POST',
    url: '{{base}}/login',
    headers: { 'Content-Type': 'application/json' },
    body: '{"password": "{{secret.PASSWORD}}"}',
    followRedirects: true,
    maxRedirects: 5,
  },
  expectedStatusCodes: ['200-299', '304'],
  assertions: [{ source: 'jsonBody', path: '$.ok', operator: 'equals', value: 'true' }],
  extract: [
    { name: 'token', from: 'jsonBody', path: '$.token' },
    { name: 'csrf', from: 'header', header: 'x-csrf' },
    { name: 'id', from: 'body', pattern: 'id=(\\d+)' },
  ],
};

describe('the API flow form’s steps and secrets, as the API takes them', () => {
  it('a stored step comes back as it was through the form’s draft', () => {
    expect(stepOf(stepDraft(signIn))).toEqual(signIn);
  });

  it('a new step is a GET expecting 2xx, an empty body sent as none, blank header rows left out', () => {
    const draft = {
      ...stepDraft(),
      name: 'Me',
      url: ' https://api.example/me ',
      headers: [{ name: ' ', value: 'x' }],
    };
    expect(stepOf(draft)).toEqual({
      name: 'Me',
      request: {
        method: 'GET',
        url: 'https://api.example/me',
        headers: {},
        body: null,
        followRedirects: true,
      },
      expectedStatusCodes: ['200-299'],
      assertions: [],
      extract: [],
    });
  });

  it('the API’s errors of one step, by their path under it', () => {
    expect(
      errorsUnder(
        { 'steps.1.request.url': 'bad', 'steps.10.name': 'no', 'steps.1.extract.0.path': 'x' },
        'steps.1.',
      ),
    ).toEqual({ 'request.url': 'bad', 'extract.0.path': 'x' });
  });

  it('secrets: a stored one kept as (set) unless replaced or removed, a new one sent, a nameless one left out', () => {
    expect(
      secretsOf([
        { name: 'KEPT', value: '', stored: true, removed: false },
        { name: 'REPLACED', value: 'new-value', stored: true, removed: false },
        { name: 'GONE', value: '', stored: true, removed: true },
        { name: 'NEW', value: 'pw', stored: false, removed: false },
        { name: ' ', value: 'x', stored: false, removed: false },
      ]),
    ).toEqual({ KEPT: '(set)', REPLACED: 'new-value', NEW: 'pw' });
  });

  it('a header’s refusal is its name’s for the API’s refusals of names (its own words), else its value’s', () => {
    const refused = createWebsiteBody.shape.customHeaders.safeParse({
      'bad name': 'x',
      Host: 'y',
      'X-A': '1',
      'x-a': '2',
      'X-B': 'a\nb',
    });
    const shownAt = Object.fromEntries(
      (refused.error?.issues ?? []).map((issue) => [
        String(issue.path[0]),
        HEADER_NAME_REFUSAL.test(issue.message) ? 'name' : 'value',
      ]),
    );
    expect(shownAt).toEqual({ 'bad name': 'name', Host: 'name', 'x-a': 'name', 'X-B': 'value' });
    // An API flow's own refusals of a header's value (libs/monitors/kinds/api-flow, server code).
    for (const message of [
      '{{nope}} is not a variable or a value an earlier step extracts (token)',
      'is a credential: give it as {{secret.NAME}} (sealed, write-only) or as a value an earlier step extracted',
    ])
      expect(HEADER_NAME_REFUSAL.test(message)).toBe(false);
  });
});
