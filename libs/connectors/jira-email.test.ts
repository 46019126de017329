import { describe, expect, it } from 'vitest';
import type { EventPayload } from '../events/index.js';
import type { OpenedChannel } from './connector.js';
import { emailMessage } from './email.js';
import type { HttpAnswer, HttpCall } from './guarded-http.js';
import { closeIssue } from './jira.js';

const up: EventPayload = {
  id: 'evt-2',
  type: 'website.up',
  createdAt: '2026-11-22T10:05:00.000Z',
  organizationId: 1,
  data: {
    website: { id: 7, publicId: 'p', name: 'Shop', url: 'https://shop.example.com/', customerId: 3 },
    previousStatus: 'down',
    status: 'up',
    incident: 'inc-9',
    result: null,
  },
};

describe('jira closeIssue', () => {
  const channel: OpenedChannel = {
    config: { baseUrl: 'https://agency.atlassian.net/', email: 'bot@example.com', doneTransition: 'Done' },
    secrets: { apiToken: 't' },
  };

  it('says which transitions the issue has when the configured one is missing, and moves nothing', async () => {
    const calls: HttpCall[] = [];
    const answers: Record<string, HttpAnswer> = {
      'POST https://agency.atlassian.net/rest/api/3/issue/OPS-1/comment': {
        status: 201,
        body: '{}',
        durationMs: 1,
      },
      'GET https://agency.atlassian.net/rest/api/3/issue/OPS-1/transitions': {
        status: 200,
        body: JSON.stringify({ transitions: [{ id: '2', name: 'Closed' }] }),
        durationMs: 1,
      },
    };
    const outcome = await closeIssue(channel, up, 'OPS-1', async (call) => {
      calls.push(call);
      const answer = answers[`${call.method} ${call.url}`];
      if (!answer) throw new Error(`unexpected ${call.method} ${call.url}`);
      return answer;
    });
    expect(outcome).toMatchObject({
      verdict: 'retry',
      problem: 'OPS-1 has no transition named "Done" (it has: Closed)',
    });
    expect(calls.map((c) => c.method)).toEqual(['POST', 'GET']);
  });
});

describe('emailMessage', () => {
  it('says a reminder is one', () => {
    const reminder: EventPayload = {
      ...up,
      type: 'website.down',
      data: { ...up.data, previousStatus: 'down', status: 'down', reminder: true },
    };
    expect(emailMessage(reminder).subject).toBe('[webmon] Shop is still down');
  });

  it('a subject that says what happened, and the facts one per line', () => {
    expect(emailMessage(up)).toEqual({
      subject: '[webmon] Shop is up again',
      text: [
        'Shop is up again',
        '',
        'Website: Shop',
        'URL: https://shop.example.com/',
        'Status: down → up',
        'Incident: inc-9',
        'Time: 2026-11-22T10:05:00.000Z',
        'Event: website.up (evt-2)',
        '',
      ].join('\n'),
    });
  });
});
