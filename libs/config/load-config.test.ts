import { describe, expect, it } from 'vitest';
import { ConfigError, decodeSecretsKey, loadConfig, requireSecretsKey } from './index.js';

const hexKey = 'ab'.repeat(32);
const base64Key = Buffer.alloc(32, 9).toString('base64');

describe('loadConfig', () => {
  it('applies the defaults of the embedded setup', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      MONGODB_URL: 'mongodb://127.0.0.1:27017/webmon',
      REDIS_URL: 'redis://127.0.0.1:6379',
      PORT: 8080,
      ALLOW_PRIVATE_TARGETS: false,
      RATE_LIMIT_PER_MINUTE: 1200,
      LOG_LEVEL: 'info',
    });
    expect(config.SECRETS_KEY).toBeUndefined();
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', MONGODB_URL: '' }).PORT).toBe(8080);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['MONGODB_URL', 'http://example.test/db'],
    ['REDIS_URL', 'not a url'],
    ['SECRETS_KEY', 'short'],
    ['SECRETS_KEYS_PREVIOUS', `${base64Key},nope`],
    ['ALLOW_PRIVATE_TARGETS', 'maybe'],
    ['LOG_LEVEL', 'loud'],
    ['NODE_REGION', 'EU West'],
    ['NODE_PUBLIC_IP', '300.1.1.1'],
    ['RATE_LIMIT_PER_MINUTE', '0'],
  ])('rejects %s=%s naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    try {
      loadConfig({ [name]: value });
    } catch (error) {
      expect((error as ConfigError).problems.some((p) => p.startsWith(`${name}:`))).toBe(true);
    }
  });

  it('takes REDIS_CLUSTER with a node URL, and refuses one naming a database the cluster lacks', () => {
    expect(loadConfig({ REDIS_CLUSTER: 'true', REDIS_URL: 'redis://10.0.0.5:7000' })).toMatchObject({
      REDIS_CLUSTER: true,
      REDIS_URL: 'redis://10.0.0.5:7000',
    });
    expect(loadConfig({ REDIS_URL: 'redis://10.0.0.5:6379/3' }).REDIS_CLUSTER).toBe(false);
    expect(() => loadConfig({ REDIS_CLUSTER: 'true', REDIS_URL: 'redis://10.0.0.5:7000/3' })).toThrow(
      expect.objectContaining({
        problems: [expect.stringMatching(/^REDIS_URL: a Redis Cluster has only database 0/)],
      }),
    );
  });

  it('reads PROBE_EXEMPT_ADDRESSES with and without ports; one without never opens the stores’ ports', () => {
    const config = loadConfig({
      PROBE_EXEMPT_ADDRESSES: '10.0.0.5, 10.0.0.6:8443, [fd00:0::1]:8443, fd00::2',
      MONGODB_URL: 'mongodb://10.0.0.9:27018/webmon',
      REDIS_URL: 'redis://10.0.0.9:7000',
    });
    const stores = [6379, 27017, 27018, 7000];
    expect(config.PROBE_EXEMPT_ADDRESSES).toEqual([
      { address: '10.0.0.5', exceptPorts: stores },
      { address: '10.0.0.6', port: 8443 },
      { address: 'fd00::1', port: 8443 },
      { address: 'fd00::2', exceptPorts: stores },
    ]);
    expect(loadConfig({}).PROBE_EXEMPT_ADDRESSES).toEqual([]);
    expect(() => loadConfig({ PROBE_EXEMPT_ADDRESSES: '10.0.0.5,db.internal:80,10.0.0.6:0' })).toThrow(
      expect.objectContaining({
        problems: [
          'PROBE_EXEMPT_ADDRESSES: entry 2 is not an IP address, IP:port or [IPv6]:port',
          'PROBE_EXEMPT_ADDRESSES: entry 3 names no port between 1 and 65535',
        ],
      }),
    );
  });

  it('never echoes a rejected value (it may be a secret)', () => {
    const secretish = 'p@ssw0rd-not-a-key';
    expect(() => loadConfig({ SECRETS_KEY: secretish })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining(secretish) }),
    );
  });

  it('reports every bad variable at once', () => {
    try {
      loadConfig({ PORT: 'x', LOG_LEVEL: 'y' });
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).problems).toHaveLength(2);
    }
  });

  it.each([
    ['true', true],
    ['1', true],
    ['yes', true],
    ['false', false],
    ['0', false],
  ])('ALLOW_PRIVATE_TARGETS=%s is %s', (value, expected) => {
    expect(loadConfig({ ALLOW_PRIVATE_TARGETS: value }).ALLOW_PRIVATE_TARGETS).toBe(expected);
  });

  it('decodes previous keys for rotation', () => {
    expect(
      loadConfig({ SECRETS_KEYS_PREVIOUS: `${hexKey}, ${base64Key}` }).SECRETS_KEYS_PREVIOUS,
    ).toHaveLength(2);
  });

  it('requireSecretsKey explains how to make a key', () => {
    expect(() => requireSecretsKey(loadConfig({}))).toThrow(/openssl rand -base64 32/);
    expect(requireSecretsKey(loadConfig({ SECRETS_KEY: hexKey }))).toHaveLength(32);
  });
});

describe('decodeSecretsKey', () => {
  it.each([
    [hexKey, true],
    [base64Key, true],
    [Buffer.alloc(32, 1).toString('base64url'), true],
    ['ab'.repeat(31), false],
    [Buffer.alloc(16).toString('base64'), false],
    ['', false],
  ])('%s → %s', (text, valid) => {
    expect(decodeSecretsKey(text) !== undefined).toBe(valid);
  });
});
