import { api, must, type Schemas } from './client.js';
import { type Loaded, useApiQuery } from './query.js';

export type User = Schemas['User'];
export type Invitation = Schemas['Invitation'];

export const peopleKeys = {
  users: ['users'] as const,
  invitations: ['invitations'] as const,
};

export function useUsers(): Loaded<User[]> {
  return useApiQuery(peopleKeys.users, async () => must(await api.GET('/api/users')));
}

export function useInvitations(): Loaded<Invitation[]> {
  return useApiQuery(peopleKeys.invitations, async () => must(await api.GET('/api/invitations')));
}
