import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyIdOf, SecretBox, SecretUnreadableError } from './secret-box.js';

const keyA = randomBytes(32);
const keyB = randomBytes(32);
const pem = '-----BEGIN PRIVATE KEY-----\nMIIEvQ…\n-----END PRIVATE KEY-----\n';

describe('SecretBox', () => {
  it('seals and opens, never storing the plaintext', () => {
    const box = new SecretBox(keyA);
    const sealed = box.seal(pem, 'websites/1/mtlsClientKey');
    expect(JSON.stringify(sealed)).not.toContain('MIIEvQ');
    expect(sealed).toMatchObject({ v: 1, kid: keyIdOf(keyA) });
    expect(box.open(sealed, 'websites/1/mtlsClientKey')).toBe(pem);
  });

  it('uses a fresh IV each time', () => {
    const box = new SecretBox(keyA);
    expect(box.seal('x', 'c').iv).not.toBe(box.seal('x', 'c').iv);
  });

  it('refuses a ciphertext moved to another record', () => {
    const box = new SecretBox(keyA);
    const sealed = box.seal(pem, 'websites/1/mtlsClientKey');
    expect(() => box.open(sealed, 'websites/2/mtlsClientKey')).toThrow(SecretUnreadableError);
  });

  it('refuses a tampered ciphertext', () => {
    const box = new SecretBox(keyA);
    const sealed = box.seal(pem, 'c');
    const data = Buffer.from(sealed.data, 'base64');
    data[0] = (data[0] ?? 0) ^ 1;
    expect(() => box.open({ ...sealed, data: data.toString('base64') }, 'c')).toThrow(SecretUnreadableError);
  });

  it('opens secrets of a previous key after rotation and says they need resealing', () => {
    const before = new SecretBox(keyA);
    const sealed = before.seal(pem, 'c');
    const after = new SecretBox(keyB, [keyA]);
    expect(after.open(sealed, 'c')).toBe(pem);
    expect(after.needsResealing(sealed)).toBe(true);
    expect(after.needsResealing(after.seal(pem, 'c'))).toBe(false);
  });

  it('names the missing key when it was not kept', () => {
    const sealed = new SecretBox(keyA).seal(pem, 'c');
    expect(() => new SecretBox(keyB).open(sealed, 'c')).toThrow(/SECRETS_KEYS_PREVIOUS/);
  });

  it('rejects a key of the wrong size', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow('32 bytes');
  });
});
