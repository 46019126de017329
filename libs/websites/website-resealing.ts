import type { Collection, Filter } from 'mongodb';
import { type ResealReport, resealCollection, type SecretBox } from '../secrets/index.js';
import {
  ALWAYS_SECRET_HEADERS,
  applyRequestInput,
  requestBodyContext,
  secretHeaderContext,
} from './secret-request.js';
import { mtlsKeyContext, type WebsiteDocument, websiteKey } from './website-document.js';

/* The stored websites' sealed credentials, kept up: sealed again after a key rotation, and credential headers sealed that were stored in the clear. */

/**
 * Seals client keys sealed under an older SECRETS_KEY again under the current one. Workers keep
 * their cached copies until restarted, which retiring a key needs anyway.
 */
export function resealWebsiteSecrets(
  collection: Collection<WebsiteDocument>,
  box: SecretBox,
  onProgress?: (report: ResealReport) => void,
): Promise<ResealReport> {
  return resealCollection({
    collection: collection,
    box,
    filter: {},
    sealedFieldsOf: (website) => [
      ...(website.mtlsClientKey
        ? [{ path: 'mtlsClientKey', sealed: website.mtlsClientKey, context: mtlsKeyContext(website.id) }]
        : []),
      ...(website.secretHeaders ?? []).map((header, index) => ({
        path: `secretHeaders.${index}.value`,
        sealed: header.value,
        context: secretHeaderContext(website.id, header.name),
      })),
      ...(website.requestBodySealed
        ? [
            {
              path: 'requestBodySealed',
              sealed: website.requestBodySealed,
              context: requestBodyContext(website.id),
            },
          ]
        : []),
    ],
    onProgress,
  });
}

/**
 * Seals the credential headers (Authorization, Proxy-Authorization, Cookie) of websites stored
 * before they were sealed; idempotent (each write is conditional on the headers it read).
 */
export async function sealCredentialHeaders(
  collection: Collection<WebsiteDocument>,
  box: SecretBox,
  /** Told after each website it seals (its revision for the workers' caches). */
  changed: (websiteId: number) => Promise<void>,
): Promise<number> {
  let sealed = 0;
  // Only the websites holding one: the server filters, every start reads nothing else.
  const names = [...ALWAYS_SECRET_HEADERS].join('|');
  const holding = { 'customHeaders.name': { $regex: `^(${names})$`, $options: 'i' } };
  for await (const website of collection.find(holding as Filter<WebsiteDocument>, {
    projection: { _id: 0 },
  })) {
    const { stored } = applyRequestInput({
      websiteId: website.id,
      current: {
        customHeaders: website.customHeaders,
        secretHeaders: website.secretHeaders ?? [],
        requestBody: website.requestBody,
        requestBodySealed: website.requestBodySealed ?? null,
      },
      input: {},
      full: false,
      secrets: box,
    });
    const result = await collection.updateOne(
      {
        _id: websiteKey(website.id),
        customHeaders: website.customHeaders,
      } as unknown as Filter<WebsiteDocument>,
      { $set: { customHeaders: stored.customHeaders, secretHeaders: stored.secretHeaders } },
    );
    if (result.modifiedCount > 0) {
      sealed++;
      await changed(website.id);
    }
  }
  return sealed;
}
