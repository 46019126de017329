import type { Middleware } from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import { AppError } from './app-error.js';
import type { AppState } from './context.js';

/** Largest accepted request body. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** DELETE too: turning two-factor off (`DELETE /api/me/two-factor`) takes a code in its body. */
const METHODS_WITH_BODY = [
  HttpMethodEnum.POST,
  HttpMethodEnum.PUT,
  HttpMethodEnum.PATCH,
  HttpMethodEnum.DELETE,
];

// A body refused before it was read would stay in the socket and corrupt the next request on it.
const CLOSE_CONNECTION = { Connection: 'close' };

function tooLarge(limit: number): AppError {
  return new AppError('payload-too-large', {
    detail: `Request bodies here are limited to ${limit} bytes.`,
    headers: CLOSE_CONNECTION,
  });
}

const parserFor = (limit: number) =>
  koaBody({
    json: true,
    jsonStrict: true,
    jsonLimit: limit,
    text: false,
    urlencoded: false,
    multipart: false,
    parsedMethods: METHODS_WITH_BODY,
  });

/**
 * JSON bodies only: a body on POST/PUT/PATCH/DELETE must be `application/json` (415 otherwise), at most
 * `limit` (1 MiB; 413, refused from Content-Length before reading when it is announced) and valid
 * JSON (400). The requests in `elsewhere` (`POST /api/imports`) are left to their route's own
 * parser, mounted after its access guard: a larger body is read only for a caller let in.
 */
export function jsonBodyMiddleware(
  options: { limit?: number; elsewhere?: (method: string, path: string) => boolean } = {},
): Middleware<AppState> {
  const limit = options.limit ?? MAX_BODY_BYTES;
  const parse = parserFor(limit);
  return async (ctx, next) => {
    if (options.elsewhere?.(ctx.method, ctx.path)) return next();
    const announced = ctx.request.length;
    const hasBody = announced === undefined ? ctx.get('transfer-encoding') !== '' : announced > 0;
    if (METHODS_WITH_BODY.some((method) => method === ctx.method) && hasBody) {
      if (!ctx.is('application/json', '+json')) {
        throw new AppError('unsupported-media-type', {
          detail: `Send the body as application/json (got ${ctx.get('content-type') || 'no Content-Type'}).`,
          headers: CLOSE_CONNECTION,
        });
      }
      if ((announced ?? 0) > limit) throw tooLarge(limit);
      try {
        await parse(ctx, async () => {});
      } catch (error) {
        const status = (error as { status?: number }).status;
        if (status === 413) throw tooLarge(limit);
        const reason = error instanceof Error ? error.message : 'unreadable body';
        throw new AppError('malformed-json', { detail: `The body is not a JSON object or array: ${reason}` });
      }
    }
    await next();
  };
}

/**
 * A body of any type read as bytes (a heartbeat ping's log): the first `maxBytes` kept as
 * `ctx.state.rawBody` (empty without a body), the rest read and dropped up to `limitBytes` (413
 * beyond); `truncated` says whether some was dropped.
 */
export function rawBodyMiddleware(options: { maxBytes: number; limitBytes: number }): Middleware<AppState> {
  return async (ctx, next) => {
    const announced = ctx.request.length;
    if ((announced ?? 0) > options.limitBytes) throw tooLarge(options.limitBytes);
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let seen = 0;
    if (METHODS_WITH_BODY.some((method) => method === ctx.method)) {
      for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
        seen += chunk.length;
        if (seen > options.limitBytes) throw tooLarge(options.limitBytes);
        if (keptBytes < options.maxBytes) {
          const part = chunk.subarray(0, options.maxBytes - keptBytes);
          kept.push(part);
          keptBytes += part.length;
        }
      }
    }
    ctx.state.rawBody = { bytes: Buffer.concat(kept), truncated: seen > keptBytes };
    await next();
  };
}
