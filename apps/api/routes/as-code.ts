import { z } from 'zod';
import { monitoringFileJsonSchema } from '../../../libs/as-code/index.js';
import { defineRoute, type Route } from '../../../libs/http/index.js';

/** The monitoring file's JSON Schema, served for editors (`$schema`) and CI linters. */
export function asCodeRoutes(): Route[] {
  let schema: Record<string, unknown> | undefined;
  return [
    defineRoute({
      method: 'get',
      path: '/monitoring.schema.json',
      operationId: 'getMonitoringFileSchema',
      summary: 'The JSON Schema of a monitoring file (monitoring as code: `webmon plan|apply`)',
      description:
        'Generated from the same schemas as the API’s request bodies: packages, customers with their websites, checks, maintenance windows and monitors (each kind as its create route takes it), notification channels (write-only values as `{env: NAME}`), status pages.',
      tags: ['System'],
      access: 'public',
      success: {
        status: 200,
        description: 'JSON Schema (draft 2020-12)',
        schema: z.record(z.string(), z.unknown()),
      },
      handle: async () => {
        schema ??= monitoringFileJsonSchema();
        return schema;
      },
    }),
  ];
}
