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
import { lockOf, type ProvisioningDeps, reevaluateRoles, type ScimCaller } from './roles.js';
import { scimInvalid, scimTaken } from './scim-error.js';
import type { ScimGroup } from './scim-store.js';
import type { ScimWrite } from './users.js';

/**
 * SCIM's Groups: who is in which of the identity provider's groups. Every change decides again
 * the roles of the people it touches (through the token's role mapping).
 */
export class ScimGroups {
  constructor(private readonly deps: ProvisioningDeps) {}

  private async names(organizationId: number): Promise<Map<number, string>> {
    return new Map((await this.deps.users.list(organizationId)).map((user) => [user.id, user.name]));
  }

  private async existing(caller: ScimCaller, id: number): Promise<ScimGroup> {
    const group = await this.deps.store.group(caller.token.organizationId, id);
    if (!group) throw notFound(`No group ${id} in this organization`);
    return group;
  }

  async get(caller: ScimCaller, id: number): Promise<ScimGroupResource> {
    const group = await this.existing(caller, id);
    return groupResource(group, await this.names(caller.token.organizationId), caller.base);
  }

  async list(caller: ScimCaller, filter: Filter | null, startIndex: number, count: number) {
    const { organizationId } = caller.token;
    const [groups, names] = await Promise.all([
      this.deps.store.groupsOf(organizationId),
      this.names(organizationId),
    ]);
    const resources = groups
      .map((group) => groupResource(group, names, caller.base))
      .filter((resource) => !filter || matches(filter, resource));
    return listPage(resources, startIndex, count);
  }

  /**
   * The members as webmon user ids, each a person of the organization: one the group gains must be
   * (400 naming `members`); one it had who was removed since (through the users API) is dropped.
   */
  private async members(caller: ScimCaller, input: ScimGroupInput, had: readonly number[] = []) {
    const ids = [...new Set((input.members ?? []).map((member) => Number(member.value)))];
    const names = await this.names(caller.token.organizationId);
    const unknown = ids.filter((id) => !names.has(id) && !had.includes(id));
    if (unknown.length > 0)
      throw scimInvalid(
        'invalidValue',
        'members',
        `no user ${unknown.slice(0, 5).join(', ')} in this organization`,
      );
    return ids.filter((id) => names.has(id));
  }

  private async checkName(caller: ScimCaller, displayName: string, id?: number): Promise<void> {
    const groups = await this.deps.store.groupsOf(caller.token.organizationId);
    if (
      groups.some((group) => group.id !== id && group.displayName.toLowerCase() === displayName.toLowerCase())
    )
      throw scimTaken('displayName', `another group is called ${displayName}`);
  }

  async create(caller: ScimCaller, input: ScimGroupInput): Promise<ScimWrite<ScimGroupResource>> {
    return this.deps.mutex.withLock(lockOf(caller.token), async () => {
      await this.checkName(caller, input.displayName);
      const members = await this.members(caller, input);
      const group = await this.deps.store.createGroup({
        organizationId: caller.token.organizationId,
        displayName: input.displayName,
        externalId: input.externalId ?? null,
        members,
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
    return this.deps.mutex.withLock(lockOf(caller.token), async () =>
      this.write(caller, await this.existing(caller, id), input),
    );
  }

  async patch(caller: ScimCaller, id: number, operations: readonly PatchOperation[]) {
    return this.deps.mutex.withLock(lockOf(caller.token), async () => {
      const group = await this.existing(caller, id);
      const before = groupResource(group, await this.names(caller.token.organizationId), caller.base);
      const after = applyPatch(before, operations, GROUP_ATTRIBUTES, GROUP_SCHEMA);
      return this.write(caller, group, parseInput(scimGroupInput, after, 'body'));
    });
  }

  /** Writes the group as given; the people whose groups changed (all, when it was renamed) have their roles decided again. */
  private async write(
    caller: ScimCaller,
    group: ScimGroup,
    input: ScimGroupInput,
  ): Promise<ScimWrite<ScimGroupResource>> {
    if (input.displayName !== group.displayName) await this.checkName(caller, input.displayName, group.id);
    const members = await this.members(caller, input, group.members);
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
      const group = await this.existing(caller, id);
      await this.deps.store.removeGroup(caller.token.organizationId, id);
      const roleChanges = await reevaluateRoles(this.deps, caller.token, group.members);
      return { resource: null, changes: [], roleChanges };
    });
  }
}
