import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface CertificateAndKey {
  certificate: string;
  key: string;
}

/** A fresh self-signed client certificate and its unencrypted private key, made with openssl. */
export function selfSignedClientCertificate(commonName = 'webmon test client'): CertificateAndKey {
  const dir = mkdtempSync(join(tmpdir(), 'webmon-pki-'));
  try {
    const keyFile = join(dir, 'key.pem');
    const certFile = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-keyout',
        keyFile,
        '-out',
        certFile,
        '-days',
        '30',
        '-subj',
        `/CN=${commonName}`,
      ],
      { stdio: 'ignore' },
    );
    return { certificate: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The same key, encrypted with a passphrase (which the API must refuse). */
export function encryptedKey(key: string): string {
  return execFileSync('openssl', ['pkey', '-aes256', '-passout', 'pass:secret'], { input: key }).toString();
}
