import { z } from 'zod';
import { notFound } from '../../../libs/errors/index.js';
import { defineRoute, type Route } from '../../../libs/http/index.js';
import {
  fromPlaywright,
  journeyFields,
  journeyJsonSchema,
  journeyStep,
  recordingBody,
} from '../../../libs/journeys/index.js';
import {
  ARTIFACT_CONTENT_TYPES,
  type ArtifactKind,
  type RunArtifacts,
} from '../../../libs/monitors/index.js';
import { type WebsiteDocument, websiteRefParams } from '../../../libs/websites/index.js';

const runParams = websiteRefParams.extend({
  resultRef: z
    .string()
    .regex(/^[0-9a-f]{24}$/)
    .describe('The run’s id, 24 hexadecimal digits (a browser result’s evidence.runId)'),
});

const binary = (description: string) =>
  z.custom<Buffer>((value) => Buffer.isBuffer(value)).meta({ type: 'string', format: 'binary', description });

/** The step format and the recorder's conversion (pure), and the files browser journeys' runs keep. */
export function journeyRoutes(deps: {
  website: (organizationId: number, ref: string) => Promise<WebsiteDocument>;
  artifacts: Pick<RunArtifacts, 'read'>;
}): Route[] {
  /** A file of a run of the caller's website, or 404 that says nothing of other websites' runs. */
  const runFile = async (
    organizationId: number,
    ref: string,
    runId: string,
    kind: ArtifactKind,
    name: string,
  ) => {
    const website = await deps.website(organizationId, ref);
    const file = await deps.artifacts.read({ organizationId, websiteId: website.id, runId }, kind, name);
    if (!file)
      throw notFound(
        `No ${kind} ${name === kind ? '' : `"${name}" `}for that run of this website (kept as long as its result)`,
      );
    return file.data;
  };
  return [
    defineRoute({
      method: 'get',
      path: '/api/browser-steps/schema',
      operationId: 'getBrowserStepsSchema',
      summary: 'The browser journey format as JSON Schema (draft 2020-12), for editors and scripts',
      description:
        'What a browser journey is written as (`POST /api/websites/{ref}/monitors {kind: "browser", …}`): its steps and options. The rules across fields (placeholders naming a variable or secret, the first step going to a URL) are checked when written and named by path.',
      tags: ['Monitors'],
      access: 'read',
      success: {
        status: 200,
        description: 'The JSON Schema',
        schema: z.record(z.string(), z.unknown()),
      },
      handle: async () => journeyJsonSchema(),
    }),
    defineRoute({
      method: 'post',
      path: '/api/browser-steps/from-playwright',
      operationId: 'convertPlaywrightRecording',
      summary: 'Steps from a test Playwright’s recorder wrote (parsed, never run)',
      description:
        'The test as `npx playwright codegen` writes it (JavaScript or TypeScript) becomes a browser journey’s steps and the options it sets (device, locale, time zone, viewport, headers); a password typed becomes {{secret.PASSWORD}}, its value in `options.secrets`. Each statement that does not convert is named with its line and why.',
      tags: ['Monitors'],
      access: 'write',
      body: recordingBody,
      success: {
        status: 200,
        description: 'The steps, the options and what did not convert',
        schema: z.object({
          steps: z.array(journeyStep),
          options: z
            .object({
              device: journeyFields.device,
              viewport: journeyFields.viewport,
              locale: journeyFields.locale,
              timezone: journeyFields.timezone,
              extraHeaders: z.record(z.string(), z.string()),
              secrets: z.record(z.string(), z.string()),
            })
            .partial(),
          unconverted: z.array(z.object({ line: z.number().int(), text: z.string(), reason: z.string() })),
        }),
      },
      handle: async ({ body }) => fromPlaywright(body.code),
    }),
    defineRoute({
      method: 'get',
      path: '/api/websites/:websiteRef/results/:resultRef/screenshot',
      operationId: 'getRunScreenshot',
      summary: 'A screenshot a browser journey’s run kept (PNG)',
      description:
        '`name`: a screenshot step’s name, or `failure` (the default) for the page as it was when a step failed; the names a run kept are in its evidence (`screenshots`). Kept as long as the run’s result (a run on request: a day). A client user reads its own customer’s websites’ only.',
      tags: ['Results'],
      access: 'read',
      params: runParams,
      query: z.strictObject({
        name: z
          .string()
          .regex(/^[A-Za-z0-9][A-Za-z0-9 _.-]{0,99}$/)
          .default('failure')
          .describe('A screenshot step’s name, or failure'),
      }),
      success: {
        status: 200,
        description: 'The image',
        schema: binary('PNG'),
        contentType: ARTIFACT_CONTENT_TYPES.screenshot,
      },
      problems: [404],
      handle: async ({ auth, params, query, ctx }) => {
        const png = await runFile(
          auth.organizationId,
          params.websiteRef,
          params.resultRef,
          'screenshot',
          query.name,
        );
        ctx.type = ARTIFACT_CONTENT_TYPES.screenshot;
        // The run's page may show the customer's data: never kept by a shared cache.
        ctx.set('Cache-Control', 'private, max-age=3600');
        return png;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/websites/:websiteRef/results/:resultRef/trace',
      operationId: 'getRunTrace',
      summary: 'The Playwright trace of a failing browser journey’s run (zip)',
      description:
        'Open it with `npx playwright show-trace trace.zip` (or trace.playwright.dev): every action, the network and the page’s DOM at each step, secrets blanked. Kept for failing runs, as long as the result. A client user reads its own customer’s websites’ only.',
      tags: ['Results'],
      access: 'read',
      params: runParams,
      success: {
        status: 200,
        description: 'The trace',
        schema: binary('A Playwright trace (zip)'),
        contentType: ARTIFACT_CONTENT_TYPES.trace,
        headers: ['Content-Disposition'],
      },
      problems: [404],
      handle: async ({ auth, params, ctx }) => {
        const zip = await runFile(auth.organizationId, params.websiteRef, params.resultRef, 'trace', 'trace');
        ctx.type = ARTIFACT_CONTENT_TYPES.trace;
        ctx.set('Content-Disposition', `attachment; filename="trace-${params.resultRef}.zip"`);
        ctx.set('Cache-Control', 'private, max-age=3600');
        return zip;
      },
    }),
  ];
}
