/** What a token may do; each scope includes the ones before it. */
export const SCOPES = ['read', 'write', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

/** True when a token with `granted` scopes may act at `required` level. */
export function hasScope(granted: readonly Scope[], required: Scope): boolean {
  const rank = SCOPES.indexOf(required);
  return granted.some((scope) => SCOPES.indexOf(scope) >= rank);
}

/** The caller of an authenticated request. */
export interface AuthContext {
  organizationId: number;
  tokenId: number;
  scopes: Scope[];
}

/** Who a token belongs to, or null when it is unknown or revoked. */
export type Authenticate = (token: string) => Promise<AuthContext | null>;
