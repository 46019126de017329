import { z } from 'zod';
import { idParams } from '../../../libs/contract/index.js';
import { conflict, notFound } from '../../../libs/errors/index.js';
import { defineRoute, type Route } from '../../../libs/http/index.js';
import type { RedisMutex } from '../../../libs/locks/index.js';
import {
  createPackage,
  createPackageBody,
  keyTakenAsConflict,
  type PackageDocument,
  type PackageRepository,
  packageView,
  patchPackageBody,
  toPackageView,
} from '../../../libs/packages/index.js';

export interface PackageRouteDependencies {
  packages: PackageRepository;
  mutex: RedisMutex;
  /** How many customers are on the package (a package in use cannot be deleted). */
  countCustomersOn(organizationId: number, packageId: number): Promise<number>;
  /** Brings the schedules of the package's websites in line with its new limits and features. */
  reschedule(organizationId: number, packageId: number): Promise<void>;
  /** The package a customer is on (null: no such customer), for callers bound to one customer. */
  packageOfCustomer(organizationId: number, customerId: number): Promise<number | null>;
}

/**
 * `/api/packages`: an organization's package configs, read with the read scope (viewers and up),
 * written with admin. A caller bound to one customer (a client user, a customer-bound token) reads
 * its customer's package only: the list holds it alone, another id is 404 (the access guard's gate).
 */
export function packageRoutes({
  packages,
  mutex,
  countCustomersOn,
  reschedule,
  packageOfCustomer,
}: PackageRouteDependencies): Route[] {
  const load = async (organizationId: number, id: number) => {
    const found = await packages.findById(organizationId, id);
    if (!found) throw notFound(`No package ${id}`);
    return found;
  };
  return [
    defineRoute({
      method: 'get',
      path: '/api/packages',
      operationId: 'listPackages',
      summary: "List the organization's packages",
      description:
        "A caller bound to one customer (client user, customer-bound token) gets its customer's package only.",
      tags: ['Packages'],
      access: 'read',
      success: { status: 200, description: 'Packages', schema: z.array(packageView) },
      handle: async ({ auth }) => {
        if (auth.customerId === undefined)
          return (await packages.list(auth.organizationId)).map(toPackageView);
        const id = await packageOfCustomer(auth.organizationId, auth.customerId);
        const own = id === null ? null : await packages.findById(auth.organizationId, id);
        return own ? [toPackageView(own)] : [];
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/packages',
      operationId: 'createPackage',
      summary: 'Create a package: features, limits and alerting defaults',
      description:
        'Omitted features default to allowed; omitted limits and alerting values take the documented defaults.',
      tags: ['Packages'],
      access: 'admin',
      body: createPackageBody,
      problems: [409],
      success: { status: 201, description: 'Created', schema: packageView },
      handle: async ({ auth, body, ctx }) => {
        const created = await createPackage(packages, auth.organizationId, body);
        ctx.set('Location', `/api/packages/${created.id}`);
        return toPackageView(created);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/packages/:id',
      operationId: 'getPackage',
      summary: 'Get a package',
      description: "A caller bound to one customer reads its customer's package only (another is 404).",
      tags: ['Packages'],
      access: 'read',
      params: idParams,
      success: { status: 200, description: 'The package', schema: packageView },
      handle: async ({ auth, params }) => toPackageView(await load(auth.organizationId, params.id)),
    }),
    defineRoute({
      method: 'patch',
      path: '/api/packages/:id',
      operationId: 'updatePackage',
      summary: 'Change a package; nested objects are merged',
      tags: ['Packages'],
      access: 'admin',
      params: idParams,
      body: patchPackageBody,
      problems: [409],
      success: { status: 200, description: 'The updated package', schema: packageView },
      handle: async ({ auth, params, body }) =>
        mutex.withLock(`package:${params.id}`, async () => {
          const current = await load(auth.organizationId, params.id);
          const next: PackageDocument = {
            ...current,
            key: body.key ?? current.key,
            displayName: body.displayName ?? current.displayName,
            features: { ...current.features, ...body.features },
            limits: { ...current.limits, ...body.limits },
            alerting: { ...current.alerting, ...body.alerting },
          };
          const updated = await keyTakenAsConflict(() => packages.replace(next));
          const schedulingChanged =
            next.limits.minCheckIntervalSeconds !== current.limits.minCheckIntervalSeconds ||
            next.features.multiRegion !== current.features.multiRegion;
          if (schedulingChanged) await reschedule(auth.organizationId, params.id);
          return toPackageView(updated);
        }),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/packages/:id',
      operationId: 'deletePackage',
      summary: 'Delete a package no customer is on',
      tags: ['Packages'],
      access: 'admin',
      params: idParams,
      problems: [409],
      success: { status: 204, description: 'Deleted' },
      handle: async ({ auth, params }) =>
        mutex.withLock(`package:${params.id}`, async () => {
          await load(auth.organizationId, params.id);
          const customers = await countCustomersOn(auth.organizationId, params.id);
          if (customers > 0)
            throw conflict(`${customers} customer(s) are on this package; move them to another first`);
          await packages.delete(auth.organizationId, params.id);
        }),
    }),
  ];
}
