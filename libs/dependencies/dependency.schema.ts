import { z } from 'zod';
import { resourceId } from '../contract/index.js';

/** Parents a website depends on at most. */
export const MAX_PARENTS = 20;

/** What a website depends on: another website (its HTTP check) or a monitor (a heartbeat, a DNS check …). */
export const parentRef = z
  .union([
    z.strictObject({ websiteId: resourceId().describe('Another website: its HTTP check') }),
    z.strictObject({
      monitorId: resourceId().describe('A monitor: a server’s heartbeat, a DNS check, a port …'),
    }),
  ])
  .meta({ id: 'DependencyParent' });
export type ParentRef = z.output<typeof parentRef>;

export const putDependenciesBody = z
  .strictObject({
    parents: z
      .array(parentRef)
      .max(MAX_PARENTS)
      .describe('While one of them is down, this website’s alerts are held (empty: it depends on nothing)'),
  })
  .superRefine((body, ctx) => {
    const seen = new Set<string>();
    for (const [i, parent] of body.parents.entries()) {
      const key = parentKey(parent);
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['parents', i], message: 'is listed twice' });
      seen.add(key);
    }
  })
  .meta({ id: 'DependenciesUpdate' });

export const dependenciesView = z
  .object({
    websiteId: z.number().int(),
    parents: z.array(
      z.object({
        websiteId: z.number().int().optional(),
        monitorId: z.number().int().optional(),
        name: z.string().describe('The website’s name, or “<website>: <monitor>”'),
        status: z.string().describe('Its health now: up, degraded, down, unknown'),
      }),
    ),
    children: z
      .array(z.object({ websiteId: z.number().int(), name: z.string() }))
      .describe('The websites that depend on this one or on one of its monitors'),
  })
  .meta({ id: 'Dependencies' });

/** A parent's key: `w<id>` or `m<id>`. */
export const parentKey = (parent: ParentRef) =>
  'websiteId' in parent ? `w${parent.websiteId}` : `m${parent.monitorId}`;
