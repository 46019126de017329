import { api, must, type Schemas } from './client.js';
import { type Loaded, useApiQuery } from './query.js';

export type ContactMethod = Schemas['ContactMethod'];
export type ContactMethodType = ContactMethod['type'];
export type ContactEvent = ContactMethod['events'][number];

export const contactMethodKeys = { mine: ['me', 'contact-methods'] as const };

/** The signed-in person's contact methods (people only: the API refuses a token). */
export function useContactMethods(): Loaded<ContactMethod[]> {
  return useApiQuery(contactMethodKeys.mine, async () => must(await api.GET('/api/me/contact-methods')));
}
