import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotifier } from '../apps/notifier/notifier.js';
import { findFreePort } from '../libs/embedded/index.js';
import { createLogger } from '../libs/logging/index.js';
import type { RunningService } from '../libs/runtime/index.js';
import { TestApi } from './support/harness.js';

const EXAMPLE = 'docs/examples/webhook-receiver.mjs';

/** The README's webhook receiver, run as a user would, verifies real deliveries and refuses forged ones. */
describe('the README webhook receiver (standardwebhooks)', () => {
  let api: TestApi;
  let notifier: RunningService;
  let receiver: ChildProcess | undefined;
  let printed = '';

  beforeAll(async () => {
    api = await TestApi.start({ ALLOW_PRIVATE_TARGETS: 'true' });
    notifier = await startNotifier(api.config, createLogger('notifier', 'silent'));
  });
  afterAll(async () => {
    receiver?.kill();
    await notifier?.stop();
    await api?.stop();
  });

  it('is in the README as it is in docs/examples', () => {
    expect(readFileSync('README.md', 'utf8')).toContain(readFileSync(EXAMPLE, 'utf8'));
  });

  it('prints a delivery signed with the channel secret and answers 400 to a forged one', async () => {
    const { token } = await api.createOrganization(['admin']);
    const port = await findFreePort();
    const channel = await api.request<{ id: number; secret: string }>('POST', '/api/notification-channels', {
      token,
      body: { type: 'webhook', name: 'Mine', config: { url: `http://127.0.0.1:${port}/hook` } },
    });
    expect(channel.status).toBe(201);
    receiver = spawn(process.execPath, [EXAMPLE], {
      env: { ...process.env, WEBHOOK_SECRET: channel.body.secret, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    receiver.stdout?.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
    });
    // Until the example has started and listens (a Node process start: seconds on a busy machine).
    await expect
      .poll(
        () =>
          fetch(`http://127.0.0.1:${port}/`, { method: 'POST' }).then(
            (r) => r.status,
            () => 0,
          ),
        { timeout: 20_000, interval: 100 },
      )
      .toBe(400);
    expect(printed).toContain('refused: ');

    const sent = await api.request('POST', `/api/notification-channels/${channel.body.id}/test`, { token });
    expect(sent.status).toBeLessThan(300);
    await expect.poll(() => printed, { timeout: 20_000 }).toMatch(/^verified test$/m);

    const forged = await fetch(`http://127.0.0.1:${port}/hook`, {
      method: 'POST',
      headers: {
        'webhook-id': 'evt_forged',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}`,
      },
      body: JSON.stringify({ type: 'website.down', data: {} }),
    });
    expect(forged.status).toBe(400);
    expect(printed).not.toContain('website.down');
  }, 60_000);
});
