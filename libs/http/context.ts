import type { ParameterizedContext } from 'koa';
import type { AuthContext } from '../contract/index.js';
import type { Logger } from '../logging/index.js';

export interface AppState {
  requestId: string;
  log: Logger;
  auth?: AuthContext;
  /** Whether the caller's token or session still holds, asked again later (without using a session). */
  stillSignedIn?: () => Promise<boolean>;
  /** Set for a route reading its body as bytes: what it keeps, and whether more came. */
  rawBody?: { bytes: Buffer; truncated: boolean };
  /** What request logs show as the path (the route's pattern when the path holds a credential). */
  loggedPath?: string;
  /** The origin people reach the service at (`PUBLIC_URL`'s), when it is set: browsers' writes must come from it. */
  publicOrigin?: string;
}

// No custom context properties: Koa's default context takes any name as `any`, which hid a `ctx.log` that never existed.
export type AppContext = ParameterizedContext<AppState, { params?: Record<string, string> }>;
