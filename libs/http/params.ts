import { z } from 'zod';

/** `/:id` of a resource with an integer id. */
export const idParams = z.object({ id: z.coerce.number().int().positive() });
