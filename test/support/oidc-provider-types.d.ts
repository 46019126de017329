// The few parts of `oidc-provider` (which ships no types) that test/support/oidc-provider.ts uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface Grant {
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    save(): Promise<string>;
  }

  interface OidcContext {
    path: string;
    body: unknown;
    oidc: {
      session?: { accountId?: string };
      client?: { clientId: string };
      provider: { Grant: new (properties: { clientId: string; accountId: string }) => Grant };
    };
  }

  export interface Configuration {
    clients: Array<Record<string, unknown>>;
    jwks: { keys: unknown[] };
    scopes: string[];
    claims: Record<string, string[]>;
    conformIdTokenClaims: boolean;
    features: Record<string, unknown>;
    pkce: { required: () => boolean };
    cookies: { keys: string[] };
    ttl: Record<string, number>;
    interactions: { url: (ctx: unknown, interaction: { uid: string }) => string };
    findAccount: (
      ctx: unknown,
      sub: string,
    ) => { accountId: string; claims: () => Record<string, unknown> } | undefined;
    loadExistingGrant: (ctx: OidcContext) => Promise<Grant | undefined>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    use(middleware: (ctx: OidcContext, next: () => Promise<void>) => Promise<void>): void;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(
      req: IncomingMessage,
      res: ServerResponse,
    ): Promise<{ uid: string; prompt: { name: string } }>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }
}
