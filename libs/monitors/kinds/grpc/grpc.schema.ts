import { z } from 'zod';
import { hostField } from '../../monitor-common.js';

/** Metadata keys as gRPC allows them (lowercase ASCII; `-bin` binary values are not taken). */
const METADATA_KEY = /^[0-9a-z_.-]{1,64}$/;
/** HTTP/2 connection headers and those the call sets itself: sent as metadata, they break the call. */
const RESERVED_KEYS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'host',
  'te',
  'content-type',
  'user-agent',
]);

/** A gRPC check's own fields, each once (create fills the defaults, PATCH takes any). */
export const grpcFields = {
  host: hostField.describe("The gRPC server (default: the website's host)"),
  port: z.number().int().min(1).max(65_535),
  tls: z.boolean().describe('TLS (the certificate checked as for HTTPS); false: plaintext HTTP/2'),
  service: z.string().max(200).describe("The service asked about ('' : the server as a whole)"),
  metadata: z
    .record(
      z
        .string()
        .regex(METADATA_KEY, 'must be a lowercase gRPC metadata key')
        .refine(
          (key) => !key.endsWith('-bin') && !key.startsWith('grpc-') && !RESERVED_KEYS.has(key),
          'binary (-bin), grpc- and HTTP/2 connection keys are not taken',
        ),
      z
        .string()
        .max(1000)
        .refine((value) => !/[\r\n]/.test(value), 'must be one line'),
    )
    .refine((metadata) => Object.keys(metadata).length <= 20, 'at most 20 entries')
    .describe('Sent with the call (e.g. an API key header)'),
};

/** As a check takes them (the host left out: the website's). */
export const grpcSettings = z.strictObject({
  host: grpcFields.host.optional(),
  port: grpcFields.port,
  tls: grpcFields.tls.default(false),
  service: grpcFields.service.default(''),
  metadata: grpcFields.metadata.default({}),
});
export type GrpcSettings = z.output<typeof grpcSettings>;
