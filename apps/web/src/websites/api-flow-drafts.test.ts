import { describe, expect, it } from 'vitest';
import { type ApiFlowStep, errorsUnder, secretsOf, stepDraft, stepOf } from './api-flow-drafts.js';

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
});
