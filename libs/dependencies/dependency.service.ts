import type { z } from 'zod';
import { type FieldError, invalidInput } from '../errors/index.js';
import type { RedisMutex } from '../locks/index.js';
import type { DependencyRepository } from './dependency.repository.js';
import type { dependenciesView, ParentRef } from './dependency.schema.js';
import { cycleThrough, type ResolvedParent } from './dependency-graph.js';

/** What dependencies read of websites and monitors. */
export interface DependencyPorts {
  website(organizationId: number, id: number): Promise<{ id: number; name: string } | null>;
  monitor(
    organizationId: number,
    id: number,
  ): Promise<{ id: number; websiteId: number; name: string } | null>;
  /** A parent's health now: up, degraded, down, unknown. */
  health(organizationId: number, parent: ParentRef): Promise<string>;
}

const lockKey = (organizationId: number) => `dependencies:${organizationId}`;

/** `PUT /api/websites/{ref}/dependencies`: a website's parents, checked to exist and to make no cycle. */
export class DependencyService {
  constructor(
    private readonly deps: { repository: DependencyRepository; ports: DependencyPorts; mutex: RedisMutex },
  ) {}

  async view(organizationId: number, websiteId: number): Promise<z.input<typeof dependenciesView>> {
    const { repository, ports } = this.deps;
    const parents = await repository.parentsOf(organizationId, websiteId);
    const shown = await Promise.all(
      parents.map(async (parent) => ({ ...parent, ...(await this.nameOf(organizationId, parent)) })),
    );
    const childIds = new Set(await repository.childrenOf({ websiteId }));
    const children = [];
    for (const id of childIds) {
      // A list may name a child that no longer depends on it (a crash between writes): checked.
      const still = (await repository.parentsOf(organizationId, id)).some(
        (p) => 'websiteId' in p && p.websiteId === websiteId,
      );
      const website = still ? await ports.website(organizationId, id) : null;
      if (website) children.push({ websiteId: website.id, name: website.name });
    }
    return {
      websiteId,
      parents: await Promise.all(
        shown
          .filter((parent) => parent.name !== null)
          .map(async ({ name, ...parent }) => ({
            ...parent,
            name: name as string,
            status: await ports.health(organizationId, parent),
          })),
      ),
      children,
    };
  }

  private async nameOf(organizationId: number, parent: ParentRef): Promise<{ name: string | null }> {
    const { ports } = this.deps;
    if ('websiteId' in parent)
      return { name: (await ports.website(organizationId, parent.websiteId))?.name ?? null };
    const monitor = await ports.monitor(organizationId, parent.monitorId);
    if (!monitor) return { name: null };
    const website = await ports.website(organizationId, monitor.websiteId);
    return { name: `${website?.name ?? `website ${monitor.websiteId}`}: ${monitor.name}` };
  }

  async replace(organizationId: number, websiteId: number, parents: readonly ParentRef[]): Promise<void> {
    const { repository, ports } = this.deps;
    await this.deps.mutex.withLock(lockKey(organizationId), async () => {
      const problems: FieldError[] = [];
      const resolved: ResolvedParent[] = [];
      for (const [i, parent] of parents.entries()) {
        if ('websiteId' in parent) {
          if (await ports.website(organizationId, parent.websiteId))
            resolved.push({ ref: parent, websiteId: parent.websiteId });
          else
            problems.push({
              path: `parents.${i}.websiteId`,
              message: `No website ${parent.websiteId} in your organization`,
            });
        } else {
          const monitor = await ports.monitor(organizationId, parent.monitorId);
          if (monitor) resolved.push({ ref: parent, websiteId: monitor.websiteId });
          else
            problems.push({
              path: `parents.${i}.monitorId`,
              message: `No monitor ${parent.monitorId} in your organization`,
            });
        }
      }
      if (problems.length > 0) throw invalidInput('Unknown parents', problems);
      const websitesOf = async (id: number) => {
        const ids: number[] = [];
        for (const parent of await repository.parentsOf(organizationId, id)) {
          if ('websiteId' in parent) ids.push(parent.websiteId);
          else {
            const monitor = await ports.monitor(organizationId, parent.monitorId);
            if (monitor && monitor.websiteId !== id) ids.push(monitor.websiteId);
          }
        }
        return ids;
      };
      const cycle = await cycleThrough(websiteId, resolved, websitesOf);
      if (cycle) {
        const index = resolved.findIndex((p) => p.websiteId === cycle[1]);
        const names = await Promise.all(
          cycle.map(async (id) => (await ports.website(organizationId, id))?.name ?? `website ${id}`),
        );
        throw invalidInput('The dependencies would make a cycle', [
          { path: `parents.${Math.max(0, index)}`, message: `would make a cycle: ${names.join(' → ')}` },
        ]);
      }
      await repository.replace(organizationId, websiteId, parents);
    });
  }
}
