import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';

export type PemResult<T> = { ok: true; value: T } | { ok: false; message: string };

/** The first certificate of a PEM bundle (the client certificate; a chain may follow it). */
export function parseCertificate(pem: string): PemResult<X509Certificate> {
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
    return { ok: false, message: 'must be a PEM certificate (-----BEGIN CERTIFICATE-----)' };
  }
  try {
    return { ok: true, value: new X509Certificate(pem) };
  } catch {
    return { ok: false, message: 'is not a readable PEM certificate' };
  }
}

export function parsePrivateKey(pem: string): PemResult<KeyObject> {
  if (/-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type: 4,ENCRYPTED/.test(pem)) {
    return {
      ok: false,
      message: 'is encrypted; send it unencrypted (it is encrypted at rest and never returned)',
    };
  }
  if (!/-----BEGIN (RSA |EC )?PRIVATE KEY-----/.test(pem)) {
    return { ok: false, message: 'must be a PEM private key (-----BEGIN PRIVATE KEY-----)' };
  }
  try {
    return { ok: true, value: createPrivateKey({ key: pem, format: 'pem' }) };
  } catch {
    return { ok: false, message: 'is not a readable PEM private key' };
  }
}

/** True when the key is the private half of the certificate's public key. */
export function keyMatchesCertificate(certificate: X509Certificate, key: KeyObject): boolean {
  try {
    return certificate.checkPrivateKey(key);
  } catch {
    return false;
  }
}
