/** What a token may do; each scope includes the ones before it. */
export const SCOPES = ['read', 'write', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

/** True when a token with `granted` scopes may act at `required` level. */
export function hasScope(granted: readonly Scope[], required: Scope): boolean {
  const rank = SCOPES.indexOf(required);
  return granted.some((scope) => SCOPES.indexOf(scope) >= rank);
}

/** What a person may do in their organization (docs/api.md, "People"). */
export const ROLES = ['viewer', 'editor', 'admin', 'owner', 'client'] as const;
export type Role = (typeof ROLES)[number];

/**
 * Roles map onto the tokens' scopes, cumulatively: the one access check serves both. An owner has
 * an admin's scopes (what only an owner may do is checked where it is done); a client reads, and
 * only what belongs to its customer (`AuthContext.customerId`).
 */
const SCOPES_OF_ROLE: Record<Role, readonly Scope[]> = {
  viewer: ['read'],
  editor: ['read', 'write'],
  admin: ['read', 'write', 'admin'],
  owner: ['read', 'write', 'admin'],
  client: ['read'],
};

export function scopesOfRole(role: Role): Scope[] {
  return [...SCOPES_OF_ROLE[role]];
}

/** The cookie a signed-in person's session id travels in. */
export const SESSION_COOKIE = 'webmon_session';

/** The caller of an authenticated request: an API token, or a person signed in with a session cookie. */
export interface AuthContext {
  organizationId: number;
  scopes: Scope[];
  /** Set for a person (session cookie). */
  role?: Role;
  userId?: number;
  /** The non-secret handle of the session the request came with (`GET /api/me/sessions`). */
  sessionHandle?: string;
  /** Set for an API token. */
  tokenId?: number;
  /** Set when the caller may see only this customer's resources (a `client` user). */
  customerId?: number;
  /** Set for a person who must turn two-factor on (organization policy) before using anything else. */
  mustEnrolTwoFactor?: true;
}

/** Who a token belongs to, or null when it is unknown or revoked. */
export type Authenticate = (token: string) => Promise<AuthContext | null>;

/** What is known of a request's client when a session is used (shown in the session list). */
export interface ClientInfo {
  address: string;
  userAgent: string;
}

/** Whose session this id is (touching it: idle expiry slides), or null when it is unknown or ended. */
export type AuthenticateSession = (sessionId: string, client: ClientInfo) => Promise<AuthContext | null>;
