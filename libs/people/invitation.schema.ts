import { z } from 'zod';
import { resourceId } from '../contract/index.js';
import { email, role } from './person.schema.js';

/** An invitation's request body, pure (zod and constants): the app's form checks it too. */
export const createInvitationBody = z
  .strictObject({
    email,
    role,
    customerId: resourceId().optional().describe('Required for the role client; refused for other roles'),
  })
  .meta({ id: 'InvitationCreate' });
export type InvitationRequest = z.output<typeof createInvitationBody>;
