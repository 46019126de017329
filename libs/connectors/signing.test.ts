import { describe, expect, it } from 'vitest';
import { webhookHeaders, webhookSignature } from './signing.js';

describe('Standard Webhooks signing', () => {
  it('matches the specification’s example', () => {
    expect(
      webhookSignature(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('signs id, timestamp (seconds) and body together', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const headers = webhookHeaders([secret], 'evt_1', new Date(1_700_000_000_999), '{}');
    expect(headers['webhook-timestamp']).toBe('1700000000');
    expect(headers['webhook-signature']).toBe(webhookSignature(secret, 'evt_1', 1_700_000_000, '{}'));
    expect(webhookSignature(secret, 'evt_1', 1_700_000_000, '{ }')).not.toBe(headers['webhook-signature']);
  });

  it('during a rotation, one signature per secret, space separated', () => {
    const old = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const fresh = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
    const headers = webhookHeaders([fresh, old], 'evt_1', new Date(1_700_000_000_000), '{}');
    expect(headers['webhook-signature']).toBe(
      `${webhookSignature(fresh, 'evt_1', 1_700_000_000, '{}')} ${webhookSignature(old, 'evt_1', 1_700_000_000, '{}')}`,
    );
  });
});
