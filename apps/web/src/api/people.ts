import { api, must, type Schemas } from './client.js';
import { type Loaded, useApiQuery } from './query.js';

export type User = Schemas['User'];
export type Invitation = Schemas['Invitation'];

export const peopleKeys = {
  users: ['users'] as const,
  invitations: ['invitations'] as const,
  tokens: ['tokens'] as const,
  sessions: ['me', 'sessions'] as const,
};

export function useUsers(): Loaded<User[]> {
  return useApiQuery(peopleKeys.users, async () => must(await api.GET('/api/users')));
}

export function useInvitations(): Loaded<Invitation[]> {
  return useApiQuery(peopleKeys.invitations, async () => must(await api.GET('/api/invitations')));
}

export function useTokens(): Loaded<Schemas['Token'][]> {
  return useApiQuery(peopleKeys.tokens, async () => must(await api.GET('/api/tokens')));
}

/** The caller's own sessions (where they are signed in). */
export function useSessions() {
  return useApiQuery(peopleKeys.sessions, async () => must(await api.GET('/api/me/sessions')));
}

/** Users' and tokens' names by id, for the audit log's actors (empty where the caller may not list them). */
export function useActorNames() {
  return useApiQuery([...peopleKeys.users, ...peopleKeys.tokens, 'names'], async () => {
    const [users, tokens] = await Promise.all([api.GET('/api/users'), api.GET('/api/tokens')]);
    return {
      user: new Map((users.data ?? []).map((u) => [u.id, u.name])),
      token: new Map((tokens.data ?? []).map((t) => [t.id, `token “${t.name}”`])),
    };
  });
}
