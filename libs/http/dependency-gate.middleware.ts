import type { Middleware } from 'koa';
import type { AppState } from './context.js';
import { serviceUnavailable } from './problem.middleware.js';

/** A server requests depend on, watched elsewhere (e.g. `watchMongoHealth`). */
export interface Dependency {
  name: string;
  readonly available: boolean;
  /** Calls `listener` when the dependency turns unavailable; returns the unsubscribe. */
  onLost(listener: () => void): () => void;
}

/**
 * Answers 503 with Retry-After at once while a dependency is known to be unavailable, and for a
 * request in flight the moment it becomes so: a stalled server neither answers nor fails, and the
 * client should hear within seconds instead of hanging with it. The abandoned handler finishes
 * (or fails) on its own; what it would answer is dropped.
 */
export function dependencyGateMiddleware(
  dependencies: readonly Dependency[],
  appliesTo: (path: string) => boolean,
): Middleware<AppState> {
  return async (ctx, next) => {
    if (!appliesTo(ctx.path)) return next();
    const down = dependencies.find((dependency) => !dependency.available);
    if (down) throw serviceUnavailable(down.name);
    let unsubscribe: Array<() => void> = [];
    const lost = new Promise<string>((resolve) => {
      unsubscribe = dependencies.map((dependency) => dependency.onLost(() => resolve(dependency.name)));
    });
    const work = next();
    try {
      const outcome = await Promise.race([work.then(() => null), lost]);
      if (outcome !== null) {
        work.catch(() => undefined);
        throw serviceUnavailable(outcome);
      }
    } finally {
      for (const stop of unsubscribe) stop();
    }
  };
}
