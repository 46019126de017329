import { z } from 'zod';
import { hostField } from '../../monitor-common.js';
import { expectField } from '../probe-kind.js';

const HEX = /^(?:[0-9a-f]{2})+$/i;

/** A UDP check's own fields, each once (create fills the defaults, PATCH takes any). */
export const udpFields = {
  host: hostField.describe("Where to send (default: the website's host)"),
  port: z.number().int().min(1).max(65_535),
  payload: z.string().max(2048).describe('The datagram sent, as text or as hex digits'),
  payloadEncoding: z.enum(['text', 'hex']),
  expect: expectField,
};

/** As a check takes them (the host left out: the website's). */
export const udpSettings = z
  .strictObject({
    host: udpFields.host.optional(),
    port: udpFields.port,
    payload: udpFields.payload.default(''),
    payloadEncoding: udpFields.payloadEncoding.default('text'),
    expect: udpFields.expect.default(null),
  })
  .superRefine((s, context) => {
    if (s.payloadEncoding === 'hex' && s.payload !== '' && !HEX.test(s.payload.replace(/\s+/g, '')))
      context.addIssue({
        code: 'custom',
        path: ['payload'],
        message: 'must be pairs of hex digits (payloadEncoding hex)',
      });
  });
export type UdpSettings = z.output<typeof udpSettings>;
