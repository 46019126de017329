import { Readable } from 'node:stream';
import { z } from 'zod';
import { decimalInteger } from '../../../libs/contract/index.js';
import type { ExportSources } from '../../../libs/exports/index.js';
import { exportDocument, exportText } from '../../../libs/exports/index.js';
import type { OrganizationShare } from '../../../libs/fair-share/index.js';
import { defineRoute, type Route, StreamedBody } from '../../../libs/http/index.js';

export function exportRoutes(
  sources: ExportSources,
  /** EXPORTS_PER_ORGANIZATION: exports under way at once per organization (held until the last byte). */
  share: OrganizationShare,
): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/exports',
      operationId: 'exportConfiguration',
      summary: 'Everything configured, to keep or to move: as JSON, or the websites as CSV',
      description:
        '`format=webmon-json`: packages, customers, websites with their check configuration, maintenance windows, the websites’ monitors (heartbeats, DNS, port and probe checks, as their create routes take them; credentials named in `secretNames`, a heartbeat’s ping URL left out), notification channels (write-only fields left out, marked `<field>Set`) and status pages, as the API shows each. `format=csv`: one row per website in the columns POST /api/imports {format: "csv"} reads (`customer, name, url, intervalSeconds, timeoutSeconds, method, keyword, keywordMode, expectedStatusCodes, paused`), RFC 4180, cells a spreadsheet would run as formulas prefixed with an apostrophe. `customerId` limits it to one customer. Written as it is read (no Content-Length): a download cut short is not a whole document. An organization has EXPORTS_PER_ORGANIZATION exports under way at once; past it 429 with Retry-After and `reason: exports-per-organization`.',
      tags: ['Websites'],
      access: 'read',
      query: z.strictObject({
        format: z.enum(['webmon-json', 'csv']).default('webmon-json'),
        customerId: decimalInteger({ min: 1, max: Number.MAX_SAFE_INTEGER }).optional(),
      }),
      success: {
        status: 200,
        description: 'The export (a download: Content-Disposition names the file)',
        schema: exportDocument,
        headers: ['Content-Disposition'],
        alternatives: [
          {
            contentType: 'text/csv; charset=utf-8',
            schema: z.string().describe('`format=csv`: the websites, one a row'),
          },
        ],
      },
      problems: [429],
      handle: async ({ auth, query, ctx }) => {
        const { organizationId } = auth;
        const customerId = query.customerId;
        const slot = await share.enter(organizationId);
        try {
          const stamp = new Date().toISOString().slice(0, 10);
          const file = `webmon-${customerId === undefined ? 'organization' : `customer-${customerId}`}-${stamp}`;
          const text = await exportText(sources, organizationId, customerId, query.format);
          ctx.type = query.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8';
          ctx.set(
            'Content-Disposition',
            `attachment; filename="${file}.${query.format === 'csv' ? 'csv' : 'json'}"`,
          );
          const stream = Readable.from(text, { objectMode: false });
          // The share is held until the last byte is written, or the download is abandoned.
          stream.once('close', () => slot.release());
          return new StreamedBody(stream);
        } catch (error) {
          slot.release();
          throw error;
        }
      },
    }),
  ];
}
