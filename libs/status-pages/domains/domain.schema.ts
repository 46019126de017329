import { z } from 'zod';
import { idParams } from '../../contract/index.js';
import type { DomainClaim } from './domain.repository.js';
import { type DnsRecordToCreate, recordsToCreate } from './verification.js';

/** A host as a person types it: checked and stored as punycode, lowercase, without the trailing dot. */
const hostInput = z
  .string()
  .max(300)
  .describe('A host name such as status.client.example (an internationalised name is stored as punycode)');

export const addDomainBody = z.strictObject({ host: hostInput });

export const domainParams = idParams.extend({ host: hostInput });

export const tlsAskQuery = z.object({
  domain: z
    .string()
    .max(300)
    .optional()
    .describe('The host a certificate is asked for (the TLS server name)'),
});

export const statusPageDomainView = z
  .object({
    host: z.string().describe('The domain, in ASCII (punycode)'),
    verified: z.boolean().describe('Whether it is proven to point at this page: it is served only then'),
    verifiedAt: z.iso.datetime().nullable(),
    checkedAt: z.iso.datetime().nullable().describe('When its DNS records were last checked'),
    lastCheck: z.string().nullable().describe('The last check’s outcome in words'),
    records: z
      .array(
        z.object({
          type: z.enum(['CNAME', 'TXT']),
          name: z.string().describe('Where to create the record'),
          value: z.string(),
        }),
      )
      .describe('The DNS records that verify the domain: either one is enough'),
  })
  .meta({ id: 'StatusPageDomain' });

export type StatusPageDomainView = z.infer<typeof statusPageDomainView>;

export function toDomainView(claim: DomainClaim, statusPagesHost: string | undefined): StatusPageDomainView {
  const records: DnsRecordToCreate[] = recordsToCreate(claim.host, claim.token, statusPagesHost);
  return {
    host: claim.host,
    verified: claim.verifiedAt !== null,
    verifiedAt: claim.verifiedAt?.toISOString() ?? null,
    checkedAt: claim.checkedAt?.toISOString() ?? null,
    lastCheck: claim.lastCheck,
    records,
  };
}
