import { z } from 'zod';
import { idParams } from '../../../libs/contract/index.js';
import type { CustomerDocument, CustomerService } from '../../../libs/customers/index.js';
import {
  automationCreateCustomerBody,
  automationCreatedCustomer,
  createCustomerBody,
  customerView,
  listCustomersQuery,
  patchCustomerBody,
  toCustomerView,
} from '../../../libs/customers/index.js';
import { notAllowed } from '../../../libs/errors/index.js';
import { defineRoute, type Route } from '../../../libs/http/index.js';

export function customerRoutes(service: CustomerService): Route[] {
  const view = async (customer: CustomerDocument) => {
    const names = await service.packageNames(customer.organizationId, [customer]);
    return toCustomerView(customer, names.get(customer.packageId) ?? '');
  };
  return [
    defineRoute({
      method: 'get',
      path: '/api/customers',
      operationId: 'listCustomers',
      summary: 'List all customers of an organization',
      description: 'organizationId must be the id of the token’s organization (403 otherwise).',
      tags: ['Customers'],
      access: 'read',
      query: listCustomersQuery,
      success: { status: 200, description: 'Customers, by id', schema: z.array(customerView) },
      handle: async ({ auth, query }) => {
        if (query.organizationId !== auth.organizationId) {
          throw notAllowed(
            `This token belongs to organization ${auth.organizationId}, not ${query.organizationId}.`,
          );
        }
        const customers = await service.list(auth.organizationId);
        const names = await service.packageNames(auth.organizationId, customers);
        return customers.map((customer) => toCustomerView(customer, names.get(customer.packageId) ?? ''));
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/customers',
      operationId: 'createCustomerByPlan',
      summary: 'Create a customer (client environment) on a plan: automation endpoint',
      tags: ['Customers'],
      access: 'write',
      body: automationCreateCustomerBody,
      success: { status: 201, description: 'Created', schema: automationCreatedCustomer },
      handle: async ({ auth, body, ctx }) => {
        const customer = await service.createFromPlan(auth.organizationId, body);
        ctx.set('Location', `/api/customers/${customer.id}`);
        return { id: String(customer.id), status: customer.status };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/customers',
      operationId: 'createCustomer',
      summary: 'Create a customer on a package',
      tags: ['Customers'],
      access: 'write',
      body: createCustomerBody,
      success: { status: 201, description: 'Created', schema: customerView },
      handle: async ({ auth, body, ctx }) => {
        const customer = await service.create(auth.organizationId, body);
        ctx.set('Location', `/api/customers/${customer.id}`);
        return view(customer);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/customers/:id',
      operationId: 'getCustomer',
      summary: 'Get a customer',
      tags: ['Customers'],
      access: 'read',
      params: idParams,
      success: { status: 200, description: 'The customer', schema: customerView },
      handle: async ({ auth, params }) => view(await service.get(auth.organizationId, params.id)),
    }),
    defineRoute({
      method: 'patch',
      path: '/api/customers/:id',
      operationId: 'updateCustomer',
      summary: 'Change a customer: details, package, status',
      description:
        'Status: active → marked_for_cancellation (cancellationDate defaults to the end of the current UTC month and must be in the future) → cancelled when the date passes (its websites stop being checked; data is kept). marked_for_cancellation → active clears the date; cancelled → active restarts checks. Other transitions: 409. `null` clears email or notificationEmail.',
      tags: ['Customers'],
      access: 'write',
      params: idParams,
      body: patchCustomerBody,
      problems: [409],
      success: { status: 200, description: 'The updated customer', schema: customerView },
      handle: async ({ auth, params, body }) =>
        view(await service.update(auth.organizationId, params.id, body)),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/customers/:id',
      operationId: 'deleteCustomer',
      summary: 'Delete a customer that has no websites',
      tags: ['Customers'],
      access: 'write',
      params: idParams,
      problems: [409],
      success: { status: 204, description: 'Deleted' },
      handle: async ({ auth, params }) => service.delete(auth.organizationId, params.id),
    }),
  ];
}
