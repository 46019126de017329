import { z } from 'zod';
import { patchBody } from '../../../contract/index.js';
import {
  hostField,
  intervalField,
  monitorName,
  monitorStatusFields,
  timeoutField,
} from '../../monitor-common.js';

const fields = {
  name: monitorName.describe('What people call it (default: host:port)'),
  host: hostField.describe("Where to connect (default: the website's host)"),
  port: z.number().int().min(1).max(65_535),
  tls: z.boolean().describe('A TLS handshake after connecting; the certificate is checked like HTTPS'),
  expectBanner: z
    .string()
    .min(1)
    .max(200)
    .refine((text) => !/[\r\n]/.test(text), 'must be one line')
    .nullable()
    .describe('The first line the server sends must start with this (e.g. "220" for SMTP)'),
  intervalSeconds: intervalField,
  timeoutSeconds: timeoutField,
};

export const createPortCheckBody = z
  .strictObject({
    ...fields,
    name: fields.name.optional(),
    host: fields.host.optional(),
    tls: fields.tls.default(false),
    expectBanner: fields.expectBanner.default(null),
    intervalSeconds: fields.intervalSeconds.default(300),
    timeoutSeconds: fields.timeoutSeconds.default(10),
  })
  .meta({ id: 'PortCheckCreate' });
/** A port check's own fields as a check takes them (the host left out: the website's, filled in when created). */
export const portSettings = z.strictObject({
  host: fields.host.optional(),
  port: fields.port,
  tls: fields.tls.default(false),
  expectBanner: fields.expectBanner.default(null),
});
export type PortSettings = z.output<typeof portSettings>;

/** As `POST /api/websites/{ref}/monitors` takes it. */
export const createPortMonitorBody = createPortCheckBody
  .extend({ kind: z.literal('port') })
  .meta({ id: 'PortMonitorCreate' });
export type PortCheckCreate = z.output<typeof createPortCheckBody>;

export const updatePortCheckBody = patchBody(z.strictObject(fields).partial()).meta({
  id: 'PortCheckUpdate',
});
export type PortCheckUpdate = z.output<typeof updatePortCheckBody>;

export const portCheckView = z
  .object({
    id: z.number().int(),
    websiteId: z.number().int(),
    kind: z.literal('port'),
    name: z.string(),
    host: z.string(),
    port: z.number().int(),
    tls: z.boolean(),
    expectBanner: z.string().nullable(),
    intervalSeconds: z.number().int(),
    timeoutSeconds: z.number().int(),
    ...monitorStatusFields,
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'PortCheck' });
