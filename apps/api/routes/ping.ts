import { z } from 'zod';
import { notFound } from '../../../libs/errors/index.js';
import {
  type AppContext,
  applyRateLimit,
  defineRoute,
  type HttpMethod,
  type Route,
} from '../../../libs/http/index.js';
import type { PingKind } from '../../../libs/monitors/index.js';
import {
  PING_BODY_KEPT_BYTES,
  PING_BODY_LIMIT_BYTES,
  type PingIntake,
  pingLog,
} from '../../../libs/monitors/index.js';

const tokenParam = z.string().max(100);
const pingAnswer = z.object({ ok: z.literal(true) }).meta({ id: 'PingAccepted' });

/** What a ping path says, from its last segment: start, fail, an exit code (0 a success), or none. */
function pingOf(suffix: string | undefined): { kind: PingKind; exitCode: number | null } | null {
  if (suffix === undefined) return { kind: 'success', exitCode: null };
  if (suffix === 'start') return { kind: 'start', exitCode: null };
  if (suffix === 'fail') return { kind: 'failure', exitCode: null };
  if (!/^\d{1,3}$/.test(suffix) || Number(suffix) > 255) return null;
  const exitCode = Number(suffix);
  return { kind: exitCode === 0 ? 'success' : 'failure', exitCode };
}

const DESCRIPTION =
  "Called by the job a heartbeat watches: `/ping/{token}` says a run succeeded, `/start` that one began (a run longer than the heartbeat's maxRunSeconds alerts), `/fail` or a non-zero exit code (`/ping/{token}/3`) that it failed. GET, HEAD and POST all count; a body of any type (its first 10 KB) is kept as the run's log. The token is the credential: 404 for one we do not know, 429 with Retry-After past 30 pings a minute.";

/**
 * The heartbeat ping endpoints (public: the token in the path is the credential). Answered from
 * Redis alone: the token's hash, its budget, the ping queued for the workers.
 */
export function pingRoutes(intake: PingIntake): Route[] {
  const handle = async (ctx: AppContext, token: string, suffix: string | undefined) => {
    const ping = pingOf(suffix);
    if (!ping) throw notFound('No such ping URL: use /ping/{token}, /start, /fail or an exit code 0-255');
    const raw = ctx.state.rawBody;
    const answer = await intake.take(token, {
      ...ping,
      body: raw ? pingLog(raw.bytes) : '',
      bodyTruncated: raw?.truncated === true,
      address: ctx.ip || null,
    });
    if (answer.outcome === 'unknown') throw notFound('No heartbeat has this ping URL');
    applyRateLimit(ctx, answer.decision, 'One heartbeat');
    ctx.set('Cache-Control', 'no-store');
    return { ok: true as const };
  };
  const routes: Route[] = [];
  const paths: Array<{
    path: string;
    operation: string;
    summary: string;
    suffix?: 'start' | 'fail' | 'code';
  }> = [
    { path: '/ping/:token', operation: 'ping', summary: 'A heartbeat ping: the run succeeded' },
    {
      path: '/ping/:token/start',
      operation: 'pingStart',
      summary: 'A heartbeat ping: a run started',
      suffix: 'start',
    },
    {
      path: '/ping/:token/fail',
      operation: 'pingFail',
      summary: 'A heartbeat ping: the run failed',
      suffix: 'fail',
    },
    {
      path: '/ping/:token/:exitCode',
      operation: 'pingExitCode',
      summary: 'A heartbeat ping with the run’s exit code (0 a success)',
      suffix: 'code',
    },
  ];
  for (const { path, operation, summary, suffix } of paths)
    for (const method of ['get', 'post'] as HttpMethod[])
      routes.push(
        defineRoute({
          method,
          path,
          operationId: `${operation}${method === 'get' ? 'Get' : 'Post'}`,
          summary,
          description: DESCRIPTION,
          tags: ['Heartbeats'],
          access: 'public',
          // A ping changes nothing of the organization's, and is answered without MongoDB.
          unaudited: true,
          credentialInPath: true,
          params:
            suffix === 'code'
              ? z.object({ token: tokenParam, exitCode: z.string().max(10) })
              : z.object({ token: tokenParam }),
          ...(method === 'post'
            ? { rawBody: { maxBytes: PING_BODY_KEPT_BYTES, limitBytes: PING_BODY_LIMIT_BYTES } }
            : {}),
          problems: [404, 413, 429],
          success: { status: 200, description: 'Recorded', schema: pingAnswer },
          handle: ({ ctx, params }) =>
            handle(
              ctx,
              params.token,
              'exitCode' in params ? String(params.exitCode) : suffix === 'code' ? undefined : suffix,
            ),
        }),
      );
  return routes;
}
