import { describe, expect, it } from 'vitest';
import type { TlsObservation } from '../../checks/index.js';
import type {
  GrpcObservation,
  IcmpObservation,
  MailObservation,
  UdpObservation,
  WebSocketObservation,
} from '../../probe/index.js';
import { LANES } from '../../scheduler/index.js';
import { SecretBox } from '../../secrets/index.js';
import {
  openedSettings,
  redacted,
  sealedValues,
  sealSettings,
  shownSettings,
  unknownSecretReferences,
} from '../sealed-settings.js';
import { grpcVerdict } from './grpc/grpc.verdict.js';
import { icmpVerdict } from './icmp/icmp.verdict.js';
import { kindTerms, MONITOR_KINDS, PROBE_KINDS, STORED_MONITOR_KINDS } from './index.js';
import { mailVerdict } from './mail/mail.verdict.js';
import { payloadBytes } from './udp/udp.kind.js';
import { udpVerdict } from './udp/udp.verdict.js';
import { websocketVerdict } from './websocket/websocket.verdict.js';

const DAY = 86_400_000;
const now = new Date('2026-11-28T12:00:00Z');
const alerting = { sslExpiryWarningDays: 14 };
const base = { startedAt: now, address: '192.0.2.1' };
const certificate = (daysLeft: number, trusted = true): TlsObservation => ({
  validFrom: new Date(now.getTime() - 30 * DAY),
  validTo: new Date(now.getTime() + daysLeft * DAY),
  issuer: 'CN=Test CA',
  subject: 'CN=mail.example',
  chainTrusted: trusted,
  chainError: trusted ? null : 'SELF_SIGNED_CERT_IN_CHAIN',
  hostnameMatches: true,
  protocol: 'TLSv1.3',
  cipher: 'TLS_AES_128_GCM_SHA256',
});

describe('each kind’s verdict is pure: observation and settings in, up / degraded / down with why out', () => {
  it('icmp: loss over the bound is down, all lost unreachable, a slow average degraded', () => {
    const seen = (received: number, rttsMs: number[]): IcmpObservation => ({
      ...base,
      timings: { dnsMs: 0, totalMs: 1 },
      sent: 4,
      received,
      rttsMs,
      error: null,
    });
    const check = { host: 'gw.example', count: 4, maxLossPercent: 25, maxRttMs: 50 };
    expect(icmpVerdict(check, seen(4, [10, 12, 11, 9])).status).toBe('up');
    expect(icmpVerdict(check, seen(3, [10, 12, 11])).status).toBe('up');
    expect(icmpVerdict(check, seen(2, [10, 12]))).toMatchObject({ status: 'down', code: 'ICMP_LOSS' });
    expect(icmpVerdict(check, seen(0, []))).toMatchObject({ status: 'down', code: 'ICMP_NO_REPLY' });
    expect(icmpVerdict(check, seen(4, [80, 90, 70, 60]))).toMatchObject({
      status: 'degraded',
      code: 'ICMP_SLOW',
    });
    expect(icmpVerdict({ ...check, maxRttMs: null }, seen(4, [800, 900, 700, 600])).status).toBe('up');
  });

  it('udp: a reply is up unless expect says otherwise; hex payloads matched as hex digits', () => {
    const seen = (reply: string | null, error: UdpObservation['error'] = null): UdpObservation => ({
      ...base,
      timings: { dnsMs: 0, replyMs: 1, totalMs: 1 },
      reply: reply === null ? null : Buffer.from(reply, 'latin1'),
      replyBytes: reply?.length ?? null,
      error,
    });
    const text = { port: 53, payload: 'ping', payloadEncoding: 'text' as const, expect: null };
    expect(udpVerdict(text, seen('pong')).status).toBe('up');
    expect(udpVerdict({ ...text, expect: { contains: 'pong' } }, seen('ping')).code).toBe('UNEXPECTED_REPLY');
    expect(udpVerdict({ ...text, expect: { matches: '^po+ng$' } }, seen('poooong')).status).toBe('up');
    expect(udpVerdict(text, seen(null, { code: 'TIMEOUT', message: 'no reply' })).cause).toBe('no reply');
    const hex = { ...text, payload: 'de ad', payloadEncoding: 'hex' as const, expect: { contains: 'beef' } };
    expect(payloadBytes(hex)).toEqual(Buffer.from([0xde, 0xad]));
    expect(udpVerdict(hex, seen('\u00be\u00ef')).status).toBe('up');
  });

  it('grpc: SERVING is up, anything else down; the certificate judged as HTTPS’s', () => {
    const seen = (
      servingStatus: GrpcObservation['servingStatus'],
      tls: TlsObservation | null = null,
    ): GrpcObservation => ({
      ...base,
      timings: { dnsMs: 0, connectMs: null, tlsMs: null, callMs: 1, totalMs: 1 },
      servingStatus,
      grpcStatus: null,
      tls,
      error: null,
    });
    const plain = { port: 50051, tls: false, service: 'shop.Cart', metadata: {} };
    expect(grpcVerdict(plain, seen('SERVING'), alerting, now).status).toBe('up');
    expect(grpcVerdict(plain, seen('NOT_SERVING'), alerting, now)).toMatchObject({
      status: 'down',
      code: 'GRPC_NOT_SERVING',
      cause: 'the health service says NOT_SERVING for shop.Cart',
    });
    const secure = { ...plain, tls: true };
    expect(grpcVerdict(secure, seen('SERVING', certificate(90)), alerting, now).status).toBe('up');
    expect(grpcVerdict(secure, seen('SERVING', certificate(5)), alerting, now)).toMatchObject({
      status: 'degraded',
      code: 'TLS_EXPIRING',
    });
    expect(grpcVerdict(secure, seen('SERVING', certificate(90, false)), alerting, now).code).toBe(
      'TLS_CERTIFICATE',
    );
  });

  it('websocket and mail: errors are down with their words; credential headers are write-only', () => {
    const ws: WebSocketObservation = {
      ...base,
      timings: { dnsMs: 0, connectMs: 1, tlsMs: null, upgradeMs: 1, replyMs: 1, totalMs: 3 },
      httpStatus: 101,
      protocol: null,
      reply: '{"status":"ok"}',
      tls: null,
      error: null,
    };
    const settings = {
      url: 'ws://rt.example/socket',
      query: {},
      secrets: {},
      headers: {},
      subprotocol: null,
      send: 'ping',
      expect: { matches: '"ok"' },
    };
    expect(websocketVerdict(settings, ws, alerting, now).status).toBe('up');
    expect(websocketVerdict({ ...settings, expect: { contains: 'pong' } }, ws, alerting, now).code).toBe(
      'UNEXPECTED_REPLY',
    );
    const box = new SecretBox(Buffer.alloc(32, 7));
    const given = {
      url: 'ws://rt.example/',
      headers: { Authorization: 'Bearer s3cret', 'X-Client': 'webmon' },
    };
    const { settings: stored, sealed } = sealSettings(PROBE_KINDS.websocket, given, given, [], box);
    expect(JSON.stringify(stored)).not.toContain('s3cret');
    expect(JSON.stringify(sealed)).not.toContain('s3cret');
    expect(shownSettings(stored, sealed).headers).toEqual({ 'X-Client': 'webmon', Authorization: '(set)' });
    expect(openedSettings(PROBE_KINDS.websocket, stored, sealed, box).headers).toEqual(given.headers);
    // "(set)" keeps the stored value; a record not sent keeps its credentials; one never stored is refused.
    const kept = sealSettings(
      PROBE_KINDS.websocket,
      { ...stored, headers: { Authorization: '(set)' } },
      { headers: {} },
      sealed,
      box,
    );
    expect(openedSettings(PROBE_KINDS.websocket, kept.settings, kept.sealed, box).headers).toEqual({
      Authorization: 'Bearer s3cret',
    });
    expect(sealSettings(PROBE_KINDS.websocket, stored, { send: 'x' }, sealed, box).sealed).toEqual(sealed);
    expect(() =>
      sealSettings(
        PROBE_KINDS.websocket,
        { ...stored, headers: { Cookie: '(set)' } },
        { headers: {} },
        sealed,
        box,
      ),
    ).toThrow('no stored value');
    // Opened under another kind or name, a sealed value is refused.
    expect(() => openedSettings(PROBE_KINDS.grpc, stored, sealed, box)).toThrow();
    // A token in the query and a secret the message names: sealed at rest, put in only to check,
    // and a reference to a secret it lacks is refused when written.
    const withToken = {
      url: 'ws://rt.example/',
      query: { token: 'q-s3cret', room: 'ops' },
      secrets: { PASSWORD: 'p4ss-word' },
      send: '{"login":"{{secret.PASSWORD}}"}',
    };
    const sealedToken = sealSettings(PROBE_KINDS.websocket, withToken, withToken, [], box);
    expect(JSON.stringify(sealedToken)).not.toMatch(/q-s3cret|p4ss-word/);
    expect(shownSettings(sealedToken.settings, sealedToken.sealed)).toMatchObject({
      query: { token: '(set)', room: 'ops' },
      secrets: { PASSWORD: '(set)' },
      send: '{"login":"{{secret.PASSWORD}}"}',
    });
    expect(unknownSecretReferences(PROBE_KINDS.websocket, sealedToken.settings, sealedToken.sealed)).toEqual(
      [],
    );
    const opened = openedSettings(PROBE_KINDS.websocket, sealedToken.settings, sealedToken.sealed, box);
    expect(opened).toMatchObject({
      query: { token: 'q-s3cret', room: 'ops' },
      send: '{"login":"p4ss-word"}',
    });
    expect(
      unknownSecretReferences(
        PROBE_KINDS.websocket,
        { ...sealedToken.settings, send: '{{secret.OTHER}}' },
        sealedToken.sealed,
      ),
    ).toEqual([
      {
        path: 'send',
        message: expect.stringContaining('{{secret.OTHER}} is not one of its secrets (PASSWORD)'),
      },
    ]);
    // Whatever a server echoes of them, evidence shows none.
    expect(
      redacted({ reply: 'welcome p4ss-word, token q-s3cret' }, sealedValues(opened, sealedToken.sealed)),
    ).toEqual({ reply: 'welcome [redacted], token [redacted]' });
    expect(
      PROBE_KINDS.websocket.settings.safeParse({ url: 'wss://rt.example/?access_token=abc' }).success,
    ).toBe(false);
    const mail: MailObservation = {
      ...base,
      timings: { dnsMs: 0, connectMs: 1, greetingMs: 1, starttlsMs: 1, tlsMs: 1, totalMs: 4 },
      greeting: '220 mx ready',
      tls: certificate(3),
      error: null,
    };
    expect(mailVerdict({ security: 'starttls' }, mail, alerting, now).code).toBe('TLS_EXPIRING');
    expect(mailVerdict({ security: 'none' }, { ...mail, tls: null }, alerting, now).status).toBe('up');
    expect(
      mailVerdict(
        { security: 'starttls' },
        { ...mail, error: { code: 'STARTTLS', message: 'not offered' } },
        alerting,
        now,
      ),
    ).toMatchObject({
      status: 'down',
      code: 'STARTTLS',
    });
  });

  it('the registry: every kind names a lane, every stored kind a feature and a limit, and checked kinds refuse unknown fields', () => {
    const lanes = Object.fromEntries(Object.values(MONITOR_KINDS).map((kind) => [kind.kind, kind.lane]));
    expect(Object.values(lanes).every((lane) => LANES.includes(lane))).toBe(true);
    expect(lanes).toMatchObject({
      http: 'http',
      heartbeat: 'fast',
      dns: 'fast',
      port: 'fast',
      icmp: 'slow',
      'api-flow': 'slow',
      browser: 'browser',
      crawl: 'site',
      lighthouse: 'site',
    });
    // The kinds stored with their fields in `settings`: port keeps its own at the top of its document.
    expect(Object.keys(PROBE_KINDS)).toEqual([
      'icmp',
      'udp',
      'grpc',
      'websocket',
      'smtp',
      'imap',
      'pop3',
      'api-flow',
      'browser',
      'crawl',
      'lighthouse',
    ]);
    // HTTP is the website itself: in every package, one per website.
    expect(MONITOR_KINDS.http).toMatchObject({ feature: null, limit: null });
    for (const kind of STORED_MONITOR_KINDS)
      expect(kindTerms(kind)).toMatchObject({
        feature: expect.any(String),
        limit: expect.any(String),
        lane: lanes[kind],
      });
    for (const kind of [...Object.values(PROBE_KINDS), MONITOR_KINDS.port]) {
      expect(kind.noun).not.toBe('');
      expect(kind.settings.safeParse({ port: 1, hots: 'typo.example' }).success).toBe(false);
    }
    expect(
      PROBE_KINDS.udp.settings.safeParse({ port: 53, payload: 'zz', payloadEncoding: 'hex' }).error?.issues[0]
        ?.path,
    ).toEqual(['payload']);
    expect(PROBE_KINDS.udp.settings.safeParse({ port: 53, expect: { matches: '(a)\\1' } }).success).toBe(
      false,
    );
    expect(PROBE_KINDS.websocket.settings.safeParse({ url: 'https://rt.example/' }).success).toBe(false);
    expect(
      PROBE_KINDS.websocket.settings.safeParse({ url: 'wss://rt.example/', headers: { Upgrade: 'x' } })
        .success,
    ).toBe(false);
    expect(PROBE_KINDS.smtp.defaultName({ host: 'mx.example', security: 'tls' })).toBe('SMTP mx.example:465');
  });
});
