import { describe, expect, it } from 'vitest';
import type { EventPayload } from '../events/index.js';
import { closingMessage, pageMessage } from './alert-message.js';

const down: EventPayload = {
  id: 'evt-1',
  type: 'website.down',
  createdAt: '2026-11-30T03:00:00.000Z',
  organizationId: 1,
  data: {
    website: { id: 7, publicId: 'w7', name: 'Shop', url: 'https://shop.example.com/', customerId: 3 },
    previousStatus: 'up',
    status: 'down',
    incident: 'inc-7',
    incidentUrl: 'https://app.example/incidents/inc-7',
    result: {
      region: 'eu',
      startedAt: '2026-11-30T02:59:50.000Z',
      httpStatus: 503,
      error: null,
      checks: [{ name: 'status', outcome: 'fail', message: 'status 503', value: 503 }],
    },
  },
};
const ACK = 'https://app.example/api/alerts/ack/abc';

describe('what a paged person gets', () => {
  it('an SMS puts the acknowledge link before anything a length limit may cut', () => {
    const sms = pageMessage(down, 'sms', ACK, 'step 1 of 2');
    expect(sms.text.startsWith(`webmon: Shop is down. Acknowledge: ${ACK} status 503.`)).toBe(true);
    expect(sms.ackUrl).toBe(ACK);
  });

  it('a mail or push names the step and the incident; a call goes to the link’s voice callback and reads no link', () => {
    const mail = pageMessage(down, 'email', ACK, 'step 1 of 2');
    expect(mail.title).toBe('[webmon] Shop is down');
    expect(mail.text).toContain('Incident: https://app.example/incidents/inc-7');
    expect(mail.text).toContain('(step 1 of 2)');
    const call = pageMessage(down, 'voice', ACK, 'step 2 of 2');
    expect(call.ackUrl).toBe(`${ACK}/voice`);
    expect(call.spoken).toBe('webmon alert. Shop is down. status 503.');
  });

  it('tells of the end: recovery, or who acknowledged', () => {
    expect(closingMessage(down, 'recovery', null).text).toBe(
      'webmon: Shop is up again. No need to act any more.',
    );
    expect(closingMessage(down, 'acknowledged', 'Alice').title).toBe('[webmon] Shop: acknowledged by Alice');
  });
});
