import { idParams } from '../../../libs/contract/index.js';
import {
  createPolicyBody,
  type EscalationPolicyService,
  patchPolicyBody,
  policyView,
  toPolicyView,
} from '../../../libs/escalation/index.js';
import { defineRoute, type Route } from '../../../libs/http/index.js';

const TAGS = ['On-call'];

/**
 * `/api/escalation-policies`: who is notified when an incident opens, in which order, how long each
 * step waits for an acknowledgement (reading needs read, changing write).
 */
export function escalationPolicyRoutes(service: EscalationPolicyService): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/escalation-policies',
      operationId: 'listEscalationPolicies',
      summary: 'The organization’s escalation policies',
      tags: TAGS,
      access: 'read',
      success: { status: 200, description: 'Policies, by id', schema: policyView.array() },
      handle: async ({ auth }) => (await service.list(auth.organizationId)).map(toPolicyView),
    }),
    defineRoute({
      method: 'post',
      path: '/api/escalation-policies',
      operationId: 'createEscalationPolicy',
      summary: 'Create an escalation policy',
      description:
        'Each step notifies its targets — `{schedule}` (whoever is on call then), `{user}` (through their verified contact methods) or `{channel}` — then waits `waitMinutes` for an acknowledgement before the next; `repeat` runs the steps again that many times. It stops when the incident is acknowledged or resolved. Attach it with `escalationPolicyId` on a website, a customer or the organization.',
      tags: TAGS,
      access: 'write',
      body: createPolicyBody,
      problems: [409],
      success: { status: 201, description: 'Created', schema: policyView },
      handle: async ({ auth, body, ctx }) => {
        const policy = await service.create(auth.organizationId, body);
        ctx.set('Location', `/api/escalation-policies/${policy.id}`);
        return toPolicyView(policy);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/escalation-policies/:id',
      operationId: 'getEscalationPolicy',
      summary: 'Get an escalation policy',
      tags: TAGS,
      access: 'read',
      params: idParams,
      success: { status: 200, description: 'The policy', schema: policyView },
      handle: async ({ auth, params }) => toPolicyView(await service.get(auth.organizationId, params.id)),
    }),
    defineRoute({
      method: 'patch',
      path: '/api/escalation-policies/:id',
      operationId: 'updateEscalationPolicy',
      summary: 'Change an escalation policy (incidents already escalating keep the steps they started with)',
      tags: TAGS,
      access: 'write',
      params: idParams,
      body: patchPolicyBody,
      success: { status: 200, description: 'The policy', schema: policyView },
      handle: async ({ auth, params, body }) =>
        toPolicyView(await service.update(auth.organizationId, params.id, body)),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/escalation-policies/:id',
      operationId: 'deleteEscalationPolicy',
      summary: 'Delete an escalation policy (409 while a website, customer or the organization uses it)',
      tags: TAGS,
      access: 'write',
      params: idParams,
      problems: [409],
      success: { status: 204, description: 'Deleted' },
      handle: async ({ auth, params }) => {
        await service.delete(auth.organizationId, params.id);
      },
    }),
  ];
}
