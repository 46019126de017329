import type { Collection, Document, Filter } from 'mongodb';
import { type SealedSecret, type SecretBox, SecretUnreadableError } from './secret-box.js';

/** One sealed value of a document: where it sits (dotted path) and what it was sealed for. */
export interface SealedField {
  path: string;
  sealed: SealedSecret;
  context: string;
}

export interface ResealReport {
  documents: number;
  resealed: number;
  /** Sealed under a key that is neither SECRETS_KEY nor in SECRETS_KEYS_PREVIOUS (or tampered with). */
  unreadable: number;
}

/**
 * Seals again, under the current key, every secret of `collection` that an older key sealed, so
 * that key can be retired. Each write is conditional on the ciphertext read, so a secret changed
 * meanwhile (by the API) is left as its writer stored it. Idempotent.
 */
export async function resealCollection<T extends Document>(args: {
  collection: Collection<T>;
  box: SecretBox;
  /** Documents that may hold secrets. */
  filter: Filter<T>;
  sealedFieldsOf(document: T): SealedField[];
  onProgress?(report: ResealReport): void;
}): Promise<ResealReport> {
  const { collection, box } = args;
  const report: ResealReport = { documents: 0, resealed: 0, unreadable: 0 };
  // Read whole first: a cursor held open across the writes stalls FerretDB's other writers.
  const documents = (await collection.find(args.filter).toArray()) as T[];
  for (const document of documents) {
    report.documents += 1;
    for (const { path, sealed, context } of args.sealedFieldsOf(document)) {
      if (!box.needsResealing(sealed)) continue;
      let plaintext: string;
      try {
        plaintext = box.open(sealed, context);
      } catch (error) {
        if (!(error instanceof SecretUnreadableError)) throw error;
        report.unreadable += 1;
        continue;
      }
      const resealed = box.seal(plaintext, context);
      const result = await collection.updateOne(
        { _id: document._id, [`${path}.data`]: sealed.data } as Filter<T>,
        { $set: { [path]: resealed } } as Document,
      );
      report.resealed += result.modifiedCount;
    }
    if (report.documents % 500 === 0) args.onProgress?.(report);
  }
  return report;
}
