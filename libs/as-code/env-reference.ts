import { z } from 'zod';

/**
 * A value read where plan/apply runs, never written in the file: credentials stay in the CI's
 * secret store (`{env: SLACK_WEBHOOK_URL}`).
 */
export const envReference = z
  .strictObject({
    env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, 'must be an environment variable name')
      .describe('The environment variable holding the value'),
  })
  .meta({ id: 'EnvReference' });
export type EnvReference = z.infer<typeof envReference>;
