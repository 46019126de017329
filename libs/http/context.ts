import type { ParameterizedContext } from 'koa';
import type { AuthContext } from '../contract/index.js';
import type { Logger } from '../logging/index.js';

export interface AppState {
  requestId: string;
  log: Logger;
  auth?: AuthContext;
}

export type AppContext = ParameterizedContext<AppState>;
