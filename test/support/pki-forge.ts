import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';

export interface Issued {
  cert: string;
  key: string;
}

const DAY = 86_400_000;

function keyPair() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    forgePrivate: forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString()),
    forgePublic: forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString()),
  };
}

let serial = 1;

/** A certificate for `names` signed by `issuer` (self-signed when absent), valid from/to the given offsets in days. */
export function issue(options: {
  commonName: string;
  names?: string[];
  issuer?: { cert: string; key: string };
  isCa?: boolean;
  validFromDays?: number;
  validToDays?: number;
  clientAuth?: boolean;
}): Issued {
  const keys = keyPair();
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.forgePublic;
  cert.serialNumber = (serial++).toString(16).padStart(2, '0');
  cert.validity.notBefore = new Date(Date.now() + (options.validFromDays ?? -1) * DAY);
  cert.validity.notAfter = new Date(Date.now() + (options.validToDays ?? 90) * DAY);
  const subject = [{ name: 'commonName', value: options.commonName }];
  cert.setSubject(subject);
  const issuerCert = options.issuer ? forge.pki.certificateFromPem(options.issuer.cert) : null;
  cert.setIssuer(issuerCert ? issuerCert.subject.attributes : subject);
  const extensions: object[] = [{ name: 'basicConstraints', cA: options.isCa ?? false }];
  if (options.isCa)
    extensions.push({ name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true });
  else
    extensions.push({
      name: 'extKeyUsage',
      serverAuth: !options.clientAuth,
      clientAuth: options.clientAuth ?? false,
    });
  if (options.names) {
    extensions.push({
      name: 'subjectAltName',
      altNames: options.names.map((name) =>
        /^[\d.]+$/.test(name) ? { type: 7, ip: name } : { type: 2, value: name },
      ),
    });
  }
  cert.setExtensions(extensions);
  const signingKey = options.issuer
    ? forge.pki.privateKeyFromPem(toPkcs1(options.issuer.key))
    : keys.forgePrivate;
  cert.sign(signingKey, forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: keys.keyPem };
}

function toPkcs1(pkcs8: string): string {
  return createPrivateKey(pkcs8).export({ type: 'pkcs1', format: 'pem' }).toString();
}
