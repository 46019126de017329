import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import type { Collection, Db, Filter } from 'mongodb';
import forge from 'node-forge';
import { isDuplicateKey } from '../../db/index.js';
import {
  type ResealReport,
  resealCollection,
  type SealedSecret,
  type SecretBox,
} from '../../secrets/index.js';

export const SAML_SP_KEYS = 'saml_sp_keys';

/** Long-lived as IdPs expect of an SP's key (they pin the certificate from our metadata). */
const VALID_YEARS = 10;

interface StoredKeys {
  /** `spk<providerId>`: read by primary key alone. */
  _id: string;
  organizationId: number;
  providerId: number;
  certificate: string;
  privateKey: SealedSecret;
  createdAt: Date;
}

export interface SpKeyPair {
  /** PEM: in our metadata, for the IdP to encrypt assertions to (and check signed requests by). */
  certificate: string;
  /** PEM PKCS#8, opened from its seal for this use only. */
  privateKey: string;
}

const keysId = (providerId: number) => `spk${providerId}`;
const sealContext = (providerId: number) => `${SAML_SP_KEYS}/${providerId}/privateKey`;

/** A self-signed certificate of a fresh RSA key: what SAML metadata carries, no CA involved. */
async function selfSigned(commonName: string): Promise<{ certificate: string; privateKey: string }> {
  const { privateKey, publicKey } = await promisify(generateKeyPair)('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forge.pki.publicKeyFromPem(publicKey);
  certificate.serialNumber = `01${forge.util.bytesToHex(forge.random.getBytesSync(15))}`;
  const now = new Date();
  certificate.validity.notBefore = new Date(now.getTime() - 60_000);
  certificate.validity.notAfter = new Date(now.getTime() + VALID_YEARS * 365 * 86_400_000);
  const subject = [{ name: 'commonName', value: commonName.slice(0, 64) }];
  certificate.setSubject(subject);
  certificate.setIssuer(subject);
  certificate.sign(forge.pki.privateKeyFromPem(privateKey), forge.md.sha256.create());
  return { certificate: forge.pki.certificateToPem(certificate), privateKey };
}

/**
 * Each SAML provider's own SP key pair: made at first need, its private key sealed (SecretBox)
 * and never shown; the certificate is public (our metadata). Two processes making one at once
 * agree on the first stored.
 */
export class ServiceProviderKeys {
  private readonly keys: Collection<StoredKeys>;

  constructor(
    db: Db,
    private readonly box: SecretBox,
  ) {
    this.keys = db.collection<StoredKeys>(SAML_SP_KEYS);
  }

  async certificate(organizationId: number, providerId: number): Promise<string> {
    return (await this.stored(organizationId, providerId)).certificate;
  }

  async keyPair(organizationId: number, providerId: number): Promise<SpKeyPair> {
    const stored = await this.stored(organizationId, providerId);
    return {
      certificate: stored.certificate,
      privateKey: this.box.open(stored.privateKey, sealContext(providerId)),
    };
  }

  /** With its provider: a provider made again under the same id gets a new key. */
  async delete(organizationId: number, providerId: number): Promise<void> {
    await this.keys.deleteOne({ _id: keysId(providerId), organizationId } as Filter<StoredKeys>);
  }

  /** The provider's keys; another organization's provider of that id is an error, never its keys. */
  private async find(organizationId: number, providerId: number): Promise<StoredKeys | null> {
    const found = await this.keys.findOne({ _id: keysId(providerId) });
    if (found && found.organizationId !== organizationId)
      throw new Error(`the SAML SP keys of provider ${providerId} are another organization's`);
    return found;
  }

  private async stored(organizationId: number, providerId: number): Promise<StoredKeys> {
    const found = await this.find(organizationId, providerId);
    if (found) return found;
    const made = await selfSigned(`webmon SAML SP ${organizationId}/${providerId}`);
    const stored: StoredKeys = {
      _id: keysId(providerId),
      organizationId,
      providerId,
      certificate: made.certificate,
      privateKey: this.box.seal(made.privateKey, sealContext(providerId)),
      createdAt: new Date(),
    };
    try {
      await this.keys.insertOne(stored);
      return stored;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      const first = await this.find(organizationId, providerId);
      if (!first) throw error;
      return first;
    }
  }

  /** Seals the private keys sealed under an older SECRETS_KEY again under the current one (`reseal-secrets`). */
  resealSecrets(onProgress?: (report: ResealReport) => void): Promise<ResealReport> {
    return resealCollection({
      collection: this.keys,
      box: this.box,
      filter: {},
      sealedFieldsOf: (stored) => [
        { path: 'privateKey', sealed: stored.privateKey, context: sealContext(stored.providerId) },
      ],
      ...(onProgress ? { onProgress } : {}),
    });
  }
}
