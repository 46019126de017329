import { describe, expect, it } from 'vitest';
import {
  parseSlackRequest,
  SLACK_MAX_SKEW_SECONDS,
  saysAck,
  slackSignature,
  slackSignatureProblem,
  slackUserOf,
  usersInfoCall,
} from './slack-events.js';

const SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
const body = (value: unknown) => Buffer.from(JSON.stringify(value));

describe('Slack request signatures', () => {
  it('matches the example of Slack’s documentation', () => {
    const slashCommand =
      'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
    expect(slackSignature(SECRET, '1531420618', slashCommand)).toBe(
      'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
    );
  });

  const now = new Date(1_700_000_000_000);
  const raw = body({ type: 'url_verification', challenge: 'c' });
  const signed = (timestamp: string, payload = raw) => ({
    secret: SECRET,
    timestamp,
    signature: slackSignature(SECRET, timestamp, payload),
    body: raw,
    now,
  });

  it('accepts a signature of the body within 5 minutes either way', () => {
    expect(slackSignatureProblem(signed('1700000000'))).toBeNull();
    expect(slackSignatureProblem(signed(String(1_700_000_000 - SLACK_MAX_SKEW_SECONDS)))).toBeNull();
    expect(slackSignatureProblem(signed(String(1_700_000_000 + SLACK_MAX_SKEW_SECONDS)))).toBeNull();
  });

  it('refuses an old or future timestamp, another body, another secret, a missing header', () => {
    expect(slackSignatureProblem(signed(String(1_700_000_000 - 301)))).toMatch(/5 minutes/);
    expect(slackSignatureProblem(signed(String(1_700_000_000 + 301)))).toMatch(/5 minutes/);
    expect(slackSignatureProblem(signed('1700000000', body({ type: 'x' })))).toMatch(/does not match/);
    expect(slackSignatureProblem({ ...signed('1700000000'), secret: `${SECRET}0` })).toMatch(
      /does not match/,
    );
    expect(slackSignatureProblem({ ...signed('1700000000'), signature: 'v0=00' })).toMatch(/does not match/);
    expect(slackSignatureProblem({ ...signed('1700000000'), signature: undefined })).toMatch(/required/);
    expect(slackSignatureProblem({ ...signed('1700000000'), timestamp: '1e9' })).toMatch(/seconds/);
  });
});

describe('what Slack posts', () => {
  const reply = {
    type: 'message',
    channel: 'C0123456789',
    user: 'U0AAA',
    text: 'ack',
    ts: '1700000001.000200',
    thread_ts: '1700000000.000100',
  };
  const callback = (event: Record<string, unknown>) =>
    body({ type: 'event_callback', event_id: 'Ev01', team_id: 'T1', event });

  it('the URL check’s challenge', () => {
    expect(parseSlackRequest(body({ type: 'url_verification', challenge: 'abc', token: 't' }))).toEqual({
      kind: 'challenge',
      challenge: 'abc',
    });
  });

  it('a person’s reply in a thread', () => {
    expect(parseSlackRequest(callback(reply))).toEqual({
      kind: 'reply',
      reply: {
        eventId: 'Ev01',
        channel: 'C0123456789',
        user: 'U0AAA',
        text: 'ack',
        threadTs: '1700000000.000100',
      },
    });
  });

  it('nothing else: a bot, an edit, a message outside a thread, the thread’s first message, other events', () => {
    const ignored = (raw: Buffer) => parseSlackRequest(raw).kind;
    expect(ignored(callback({ ...reply, bot_id: 'B01' }))).toBe('ignored');
    expect(ignored(callback({ ...reply, subtype: 'message_changed' }))).toBe('ignored');
    expect(ignored(callback({ ...reply, thread_ts: undefined }))).toBe('ignored');
    expect(ignored(callback({ ...reply, ts: reply.thread_ts }))).toBe('ignored');
    expect(ignored(callback({ ...reply, type: 'reaction_added' }))).toBe('ignored');
    expect(ignored(body({ type: 'app_rate_limited', minute_rate_limited: 1 }))).toBe('ignored');
    expect(ignored(Buffer.from('token=x'))).toBe('ignored');
  });
});

describe('what says ack', () => {
  it.each([
    'ack',
    'ACK',
    'Ack!',
    'acknowledge',
    'Acknowledged',
    'on it',
    'On it, restarting the database',
    'ack - looking',
    '<@U0BOT> ack',
    '<@U0BOT|webmon>: on it',
    '  ack  ',
  ])('%s', (text) => expect(saysAck(text)).toBe(true));

  it.each([
    '',
    'ack?',
    'acked',
    'acknowledgement pending',
    'not ack',
    'who is on it?',
    'on items',
    'backup is fine',
    'on it’s way',
  ])('not %s', (text) => expect(saysAck(text)).toBe(false));
});

describe('users.info', () => {
  const channel = {
    config: { apiBaseUrl: 'http://127.0.0.1:9/api/', channel: 'C0123456789' },
    secrets: { botToken: 'xoxb-1234567890-abc' },
  };

  it('asks the channel’s Web API with its bot token', () => {
    expect(usersInfoCall(channel, 'U0 A')).toEqual({
      method: 'GET',
      url: 'http://127.0.0.1:9/api/users.info?user=U0%20A',
      headers: { authorization: 'Bearer xoxb-1234567890-abc' },
    });
  });

  const answer = (json: unknown) => ({ status: 200, body: JSON.stringify(json), durationMs: 1 });
  it('reads the profile’s e-mail, or says why there is none', () => {
    expect(
      slackUserOf(answer({ ok: true, user: { id: 'U1', profile: { email: 'ann@example.com' } } })),
    ).toEqual({ email: 'ann@example.com' });
    expect(slackUserOf(answer({ ok: true, user: { id: 'U1', profile: {} } }))).toEqual({ email: null });
    expect(slackUserOf(answer({ ok: false, error: 'user_not_found' }))).toEqual({
      problem: "Slack's users.info answered user_not_found",
    });
    expect(slackUserOf({ status: 502, body: '<html>', durationMs: 1 })).toEqual({
      problem: "Slack's users.info answered HTTP 502 without its JSON",
    });
  });
});
