import { parseInput } from '../contract/index.js';
import { KeyTakenError } from '../db/index.js';
import { conflict, notAllowed, notFound } from '../errors/index.js';
import type { User } from '../people/index.js';
import { USER_ATTRIBUTES, USER_SCHEMA } from './attributes.js';
import { type Filter, matches } from './filter.js';
import { applyPatch, type PatchOperation } from './patch.js';
import {
  listPage,
  personNameOf,
  type ScimUserInput,
  type ScimUserResource,
  scimUserInput,
  userResource,
} from './resources.js';
import {
  actorOf,
  decideRole,
  inScope,
  lockOf,
  type ProvisioningDeps,
  type RoleChange,
  type RoleSource,
  roleSourceOf,
  type ScimCaller,
} from './roles.js';
import { scimInvalid, scimTaken } from './scim-error.js';
import type { ScimPerson } from './scim-store.js';

/** What a write changed, for the audit log (never a secret: SCIM carries none). */
export interface ScimWrite<T> {
  resource: T;
  changes: Array<{ path: string; old: unknown; new: unknown }>;
  roleChanges: RoleChange[];
}

/** SCIM's Users over webmon's people: every person of the token's organization, SCIM-made or not. */
export class ScimUsers {
  constructor(private readonly deps: ProvisioningDeps) {}

  /** The person, if the token reaches them (a customer's token: that customer's clients only). */
  private async existing(caller: ScimCaller, id: number, source?: RoleSource): Promise<User> {
    const user = await this.deps.users.findById(caller.token.organizationId, id);
    if (!user || !inScope(source ?? (await roleSourceOf(this.deps, caller.token)), user))
      throw notFound(`No user ${id} in this organization`);
    return user;
  }

  private async represent(caller: ScimCaller, user: User): Promise<ScimUserResource> {
    const { organizationId } = caller.token;
    const [person, groups] = await Promise.all([
      this.deps.store.person(organizationId, user.id),
      this.deps.store.groupsOf(organizationId),
    ]);
    return userResource(user, person, groups, caller.base);
  }

  async get(caller: ScimCaller, id: number): Promise<ScimUserResource> {
    return this.represent(caller, await this.existing(caller, id));
  }

  /**
   * The people the token reaches matching the filter, a page of them. The lookups a sync makes
   * per person (`userName eq`, `externalId eq`) read those people alone, not the organization.
   */
  async list(caller: ScimCaller, filter: Filter | null, startIndex: number, count: number) {
    const { organizationId } = caller.token;
    const source = await roleSourceOf(this.deps, caller.token);
    const keyed = filter ? await this.keyedCandidates(organizationId, filter) : null;
    const [users, people, groups] = await Promise.all([
      keyed ?? this.deps.users.list(organizationId),
      keyed ? null : this.deps.store.peopleOf(organizationId),
      this.deps.store.groupsOf(organizationId),
    ]);
    const byUser = people && new Map(people.map((person) => [person.userId, person]));
    const resources: ScimUserResource[] = [];
    for (const user of users) {
      if (!inScope(source, user)) continue;
      const person = byUser
        ? (byUser.get(user.id) ?? null)
        : await this.deps.store.person(organizationId, user.id);
      const resource = userResource(user, person, groups, caller.base);
      if (!filter || matches(filter, resource)) resources.push(resource);
    }
    return listPage(resources, startIndex, count);
  }

  /**
   * The only people `userName eq "…"` (by the users' e-mail lookup) or `externalId eq "…"` (by
   * SCIM's people) can match; null for any other filter. The filter still judges them.
   */
  private async keyedCandidates(organizationId: number, filter: Filter): Promise<User[] | null> {
    if (filter.kind !== 'compare' || filter.op !== 'eq' || typeof filter.value !== 'string') return null;
    if (filter.path.sub || filter.path.filter) return null;
    const attribute = filter.path.attribute.name;
    if (attribute === 'userName') {
      const user = await this.deps.users.findByEmail(filter.value.trim().toLowerCase());
      return user && user.organizationId === organizationId ? [user] : [];
    }
    if (attribute === 'externalId') {
      const people = await this.deps.store.peopleWithExternalId(organizationId, filter.value);
      const users = await Promise.all(
        people.map((person) => this.deps.users.findById(organizationId, person.userId)),
      );
      return users.filter((user): user is User => user !== null);
    }
    return null;
  }

  /** 409 when another person of the organization holds this externalId (one removed since does not count). */
  private async checkExternalId(caller: ScimCaller, externalId: string | null | undefined, userId?: number) {
    if (!externalId) return;
    const { organizationId } = caller.token;
    for (const person of await this.deps.store.peopleOf(organizationId))
      if (
        person.externalId === externalId &&
        person.userId !== userId &&
        (await this.deps.users.findById(organizationId, person.userId))
      )
        throw scimTaken('externalId', 'another person of this organization has it');
  }

  private person(caller: ScimCaller, userId: number, input: ScimUserInput): ScimPerson {
    return {
      organizationId: caller.token.organizationId,
      userId,
      externalId: input.externalId ?? null,
      givenName: input.name?.givenName ?? null,
      familyName: input.name?.familyName ?? null,
      formatted: input.name?.formatted ?? null,
      emails: (input.emails ?? []).map(({ value, type, primary }) => ({
        value,
        ...(type ? { type } : {}),
        ...(primary !== undefined ? { primary } : {}),
      })),
      updatedAt: new Date(),
    };
  }

  /** A passwordless person (they sign in through their identity provider), with the mapping's role. */
  async create(caller: ScimCaller, input: ScimUserInput): Promise<ScimWrite<ScimUserResource>> {
    const { token } = caller;
    return this.deps.mutex.withLock(lockOf(token), async () => {
      const source = await roleSourceOf(this.deps, token);
      const domain = input.userName.slice(input.userName.lastIndexOf('@') + 1);
      if (source.allowedDomains && !source.allowedDomains.includes(domain))
        throw scimInvalid(
          'invalidValue',
          'userName',
          `${domain} is not among the identity provider's allowed domains (${source.allowedDomains.join(', ')}); ask your webmon admin`,
        );
      const taken = await this.deps.users.findByEmail(input.userName);
      if (taken)
        throw scimTaken(
          'userName',
          taken.organizationId !== token.organizationId
            ? `${input.userName} is in use in webmon by another organization; ask your webmon admin`
            : inScope(source, taken)
              ? `${input.userName} is already a person of this organization (find them with filter=userName eq "…")`
              : `${input.userName} is in use in webmon; ask your webmon admin`,
        );
      await this.checkExternalId(caller, input.externalId);
      const decision = decideRole(source, {
        subject: input.externalId || input.userName,
        email: input.userName,
        name: null,
        groups: [],
        claims: {},
      });
      if (decision.outcome === 'refused')
        throw notAllowed(`The SCIM token's role mapping gives this person no role (${decision.reason})`);
      if (decision.role === 'owner' && token.grant !== 'owner')
        throw notAllowed('Only an owner’s SCIM token makes owners; ask an owner to make the token.');
      if (
        decision.customerId !== null &&
        !(await this.deps.customerExists(token.organizationId, decision.customerId))
      )
        throw conflict(
          `The SCIM token maps people to customer ${decision.customerId}, which is gone; ask your webmon admin to fix its role mapping.`,
        );
      let user: User;
      try {
        user = await this.deps.users.create(
          {
            organizationId: token.organizationId,
            email: input.userName,
            name: personNameOf(input),
            role: decision.role,
            customerId: decision.customerId,
          },
          // No password: they sign in through their identity provider.
          '',
        );
      } catch (error) {
        if (error instanceof KeyTakenError)
          throw scimTaken('userName', `${input.userName} is in use in webmon`);
        throw error;
      }
      if (token.identityProviderId !== null) {
        // The provider's subject is the externalId the client sends (configure it so), else the e-mail.
        const subject = input.externalId || input.userName;
        await this.deps.users.update(user, {
          identities: [{ providerId: token.identityProviderId, subject, linkedAt: new Date() }],
        });
        await this.deps.linkIdentity(token.identityProviderId, subject, token.organizationId, user.id);
      }
      await this.deps.store.putPerson(this.person(caller, user.id, input));
      if (input.active === false)
        user = await this.deps.administration.setActive(actorOf(token), user.id, false);
      return {
        resource: await this.represent(caller, user),
        changes: [{ path: 'role', old: null, new: decision.role }],
        roleChanges: [],
      };
    });
  }

  /** PUT: the person as the client says they are now (userName cannot change: it is their sign-in). */
  async replace(caller: ScimCaller, id: number, input: ScimUserInput): Promise<ScimWrite<ScimUserResource>> {
    return this.deps.mutex.withLock(lockOf(caller.token), async () => {
      const user = await this.existing(caller, id);
      return this.write(caller, user, await this.represent(caller, user), input);
    });
  }

  /** PATCH: the operations applied to the person's representation, then written as a PUT of it. */
  async patch(caller: ScimCaller, id: number, operations: readonly PatchOperation[]) {
    return this.deps.mutex.withLock(lockOf(caller.token), async () => {
      const user = await this.existing(caller, id);
      const before = await this.represent(caller, user);
      const after = applyPatch(before, operations, USER_ATTRIBUTES, USER_SCHEMA);
      return this.write(caller, user, before, parseInput(scimUserInput, after, 'body'));
    });
  }

  private async write(
    caller: ScimCaller,
    user: User,
    before: ScimUserResource,
    input: ScimUserInput,
  ): Promise<ScimWrite<ScimUserResource>> {
    const { token } = caller;
    if (input.userName !== user.email)
      throw scimInvalid(
        'mutability',
        'userName',
        'is the person’s sign-in e-mail; an admin changes it in webmon',
      );
    await this.checkExternalId(caller, input.externalId, user.id);
    const changes: ScimWrite<ScimUserResource>['changes'] = [];
    const name = personNameOf(input);
    if (name !== user.name) {
      await this.deps.administration.update(actorOf(token), user.id, { name });
      changes.push({ path: 'displayName', old: user.name, new: name });
    }
    const active = input.active ?? true;
    let written = user;
    if (active !== before.active) {
      written = await this.deps.administration.setActive(actorOf(token), user.id, active);
      changes.push({ path: 'active', old: before.active, new: active });
    }
    const person = this.person(caller, user.id, input);
    if ((person.externalId ?? undefined) !== before.externalId)
      changes.push({ path: 'externalId', old: before.externalId ?? null, new: person.externalId });
    await this.deps.store.putPerson(person);
    const after = await this.represent(caller, { ...written, name });
    return { resource: after, changes, roleChanges: [] };
  }

  /** Removes the person as the users API does (the last owner stays); forgets their SCIM attributes. */
  async delete(caller: ScimCaller, id: number): Promise<void> {
    await this.deps.mutex.withLock(lockOf(caller.token), async () => {
      await this.existing(caller, id);
      await this.deps.administration.delete(actorOf(caller.token), id);
      await this.deps.store.removePerson(caller.token.organizationId, id);
    });
  }
}
