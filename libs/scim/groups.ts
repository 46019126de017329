import { parseInput } from '../contract/index.js';
import { notFound } from '../errors/index.js';
import { GROUP_ATTRIBUTES, GROUP_SCHEMA } from './attributes.js';
import { type Filter, matches } from './filter.js';
import { applyPatch, type PatchOperation } from './patch.js';
import {
  groupResource,
  listPage,
  type ScimGroupInput,
  type ScimGroupResource,
  scimGroupInput,
} from './resources.js';
import {
  groupsInScope,
  inScope,
  lockOf,
  type ProvisioningDeps,
  type RoleSource,
  reevaluateRoles,
  roleSourceOf,
  type ScimCaller,
} from './roles.js';
import { scimInvalid, scimTaken } from './scim-error.js';
import type { ScimGroup } from './scim-store.js';
import type { ScimWrite } from './users.js';

/**
 * SCIM's Groups: who is in which of the identity provider's groups. Every change decides again
 * the roles of the people it touches (through the token's role mapping).
 */
export class ScimGroups {
  constructor(private readonly deps: ProvisioningDeps) {}

  private source(caller: ScimCaller): Promise<RoleSource> {
    return roleSourceOf(this.deps, caller.token);
  }

  /** The names of the people the token reaches (a customer's token: that customer's clients). */
  private async names(caller: ScimCaller, source: RoleSource): Promise<Map<number, string>> {
    const users = await this.deps.users.list(caller.token.organizationId);
    return new Map(users.filter((user) => inScope(source, user)).map((user) => [user.id, user.name]));
  }

  /** The group, if the token sees it: a customer's token its customer's groups, others the organization's. */
  private async existing(caller: ScimCaller, id: number, source: RoleSource): Promise<ScimGroup> {
    const group = await this.deps.store.group(caller.token.organizationId, id);
    if (!group || groupsInScope([group], source).length === 0)
      throw notFound(`No group ${id} in this organization`);
    return group;
  }

  async get(caller: ScimCaller, id: number): Promise<ScimGroupResource> {
    const source = await this.source(caller);
    const group = await this.existing(caller, id, source);
    return groupResource(group, await this.names(caller, source), caller.base);
  }

  async list(caller: ScimCaller, filter: Filter | null, startIndex: number, count: number) {
    const source = await this.source(caller);
    const [groups, names] = await Promise.all([
      this.deps.store.groupsOf(caller.token.organizationId),
      this.names(caller, source),
    ]);
    const resources = groupsInScope(groups, source)
      .map((group) => groupResource(group, names, caller.base))
      .filter((resource) => !filter || matches(filter, resource));
    return listPage(resources, startIndex, count);
  }

  /**
   * The members as webmon user ids, each a person the token reaches: one the group gains must be
   * (400 naming `members`); one it had who was removed or moved out of reach since is dropped.
   */
  private async members(
    caller: ScimCaller,
    source: RoleSource,
    input: ScimGroupInput,
    had: readonly number[] = [],
  ) {
    const ids = [...new Set((input.members ?? []).map((member) => Number(member.value)))];
    const names = await this.names(caller, source);
    const unknown = ids.filter((id) => !names.has(id) && !had.includes(id));
    if (unknown.length > 0)
      throw scimInvalid(
        'invalidValue',
        'members',
        source.customerId === null
          ? `no user ${unknown.slice(0, 5).join(', ')} in this organization`
          : `no client user ${unknown.slice(0, 5).join(', ')} of this token's customer`,
      );
    return ids.filter((id) => names.has(id));
  }

  private async checkName(caller: ScimCaller, source: RoleSource, displayName: string, id?: number) {
    const groups = groupsInScope(await this.deps.store.groupsOf(caller.token.organizationId), source);
    if (
      groups.some((group) => group.id !== id && group.displayName.toLowerCase() === displayName.toLowerCase())
    )
      throw scimTaken('displayName', `another group is called ${displayName}`);
  }

  async create(caller: ScimCaller, input: ScimGroupInput): Promise<ScimWrite<ScimGroupResource>> {
    return this.deps.mutex.withLock(lockOf(caller.token), async () => {
      const source = await this.source(caller);
      await this.checkName(caller, source, input.displayName);
      const members = await this.members(caller, source, input);
      const group = await this.deps.store.createGroup({
        organizationId: caller.token.organizationId,
        displayName: input.displayName,
        externalId: input.externalId ?? null,
        members,
        ...(source.customerId === null ? {} : { customerId: source.customerId }),
      });
      const roleChanges = await reevaluateRoles(this.deps, caller.token, members);
      return { resource: await this.get(caller, group.id), changes: [], roleChanges };
    });
  }

  async replace(
    caller: ScimCaller,
    id: number,
    input: ScimGroupInput,
  ): Promise<ScimWrite<ScimGroupResource>> {
    return this.deps.mutex.withLock(lockOf(caller.token), async () => {
      const source = await this.source(caller);
      return this.write(caller, source, await this.existing(caller, id, source), input);
    });
  }

  async patch(caller: ScimCaller, id: number, operations: readonly PatchOperation[]) {
    return this.deps.mutex.withLock(lockOf(caller.token), async () => {
      const source = await this.source(caller);
      const group = await this.existing(caller, id, source);
      const before = groupResource(group, await this.names(caller, source), caller.base);
      const after = applyPatch(before, operations, GROUP_ATTRIBUTES, GROUP_SCHEMA);
      return this.write(caller, source, group, parseInput(scimGroupInput, after, 'body'));
    });
  }

  /** Writes the group as given; the people whose groups changed (all, when it was renamed) have their roles decided again. */
  private async write(
    caller: ScimCaller,
    source: RoleSource,
    group: ScimGroup,
    input: ScimGroupInput,
  ): Promise<ScimWrite<ScimGroupResource>> {
    if (input.displayName !== group.displayName)
      await this.checkName(caller, source, input.displayName, group.id);
    const members = await this.members(caller, source, input, group.members);
    await this.deps.store.putGroup({
      ...group,
      displayName: input.displayName,
      externalId: input.externalId ?? null,
      members,
    });
    const renamed =
      input.displayName !== group.displayName || (input.externalId ?? null) !== group.externalId;
    const touched = renamed
      ? [...group.members, ...members]
      : [
          ...members.filter((id) => !group.members.includes(id)),
          ...group.members.filter((id) => !members.includes(id)),
        ];
    const changes = [
      ...(input.displayName !== group.displayName
        ? [{ path: 'displayName', old: group.displayName, new: input.displayName }]
        : []),
      ...(touched.length > 0 && !renamed ? [{ path: 'members', old: group.members, new: members }] : []),
    ];
    const roleChanges = await reevaluateRoles(this.deps, caller.token, touched);
    return { resource: await this.get(caller, group.id), changes, roleChanges };
  }

  /** The group goes; its members' roles are decided again without it. */
  async delete(caller: ScimCaller, id: number): Promise<ScimWrite<null>> {
    return this.deps.mutex.withLock(lockOf(caller.token), async () => {
      const group = await this.existing(caller, id, await this.source(caller));
      await this.deps.store.removeGroup(caller.token.organizationId, id);
      const roleChanges = await reevaluateRoles(this.deps, caller.token, group.members);
      return { resource: null, changes: [], roleChanges };
    });
  }
}
