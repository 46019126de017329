import type { AuthContext, ClientInfo } from '../contract/index.js';
import { KeyTakenError } from '../db/index.js';
import { conflict, invalidInput, notAllowed, notFound, tooMany } from '../errors/index.js';
import type { MailBudget } from '../fair-share/index.js';
import type { Logger } from '../logging/index.js';
import type { AccountPasswords } from './account-passwords.js';
import {
  EXPIRED_INVITATION_KEPT_MS,
  type Invitation,
  type InvitationRepository,
} from './invitation.repository.js';
import type { InvitationRequest } from './invitation.schema.js';
import {
  linkWithToken,
  type MailSettings,
  mailFailureOf,
  mailNotSent,
  type PeopleMailRoutes,
  requireMailer,
} from './mailer.js';
import { hashOfToken } from './one-time-token.js';
import type { SignIn } from './sign-in.js';
import type { UserRepository } from './user.repository.js';
import type { User } from './user.schema.js';

/** The one answer for a token that is unknown, used or expired: which of them is not said. */
export const unusableToken = () =>
  invalidInput('This link is unknown, used or expired: ask for a new one.', [
    { path: 'token', message: 'unknown, used or expired' },
  ]);

export function invitationMail(
  invitation: Pick<Invitation, 'email' | 'role' | 'expiresAt'>,
  link: string,
): { to: string; subject: string; text: string } {
  return {
    to: invitation.email,
    subject: '[webmon] You are invited',
    text: `You are invited to webmon as ${invitation.role}.\n\nChoose your name and password here (the link works once, until ${invitation.expiresAt.toISOString()}):\n${link}\n\nIf you did not expect this, ignore this mail.\n`,
  };
}

/**
 * What an address that has an account in another organization is sent instead of a link: the
 * inviter is answered as for any address (nothing tells them of the other organization's people).
 */
export function accountElsewhereMail(invitation: Pick<Invitation, 'email'>): {
  to: string;
  subject: string;
  text: string;
} {
  return {
    to: invitation.email,
    subject: '[webmon] You are invited',
    text: `Someone invited ${invitation.email} to an organization on webmon, but this address has an account already, and an address belongs to one organization.\n\nIf you want to join, ask them to invite another address of yours. If you did not expect this, ignore this mail.\n`,
  };
}

export interface InvitationDeps {
  invitations: InvitationRepository;
  users: UserRepository;
  /** The password policy and the hash pool. */
  passwords: Pick<AccountPasswords, 'check' | 'hash'>;
  /** Opens the new user's session as a sign-in does (two-factor enrolment rules included). */
  sessions: Pick<SignIn, 'openSession'>;
  /** SMTP_URL, else the organization's e-mail channel; neither: inviting answers 503 saying what to set. */
  mailRoutes: PeopleMailRoutes;
  mail: MailSettings;
  customerExists(organizationId: number, customerId: number): Promise<boolean>;
  log: Logger;
  /** The organization's and the address's mail budgets (MAIL_PER_*): an invitation is a mail. */
  mailBudget: Pick<MailBudget, 'take'>;
  /** INVITATION_RESEND_SECONDS: an address's pending invitation is sent again at most this often. */
  resendAfterMs: number;
}

/** Inviting people by e-mail, and their accepting (which makes the user and signs them in). */
export class Invitations {
  constructor(private readonly deps: InvitationDeps) {}

  /** The customer a client invitation is bound to: required for a client, refused otherwise, and existing. */
  private async customerOf(organizationId: number, request: InvitationRequest): Promise<number | null> {
    if (request.role !== 'client') {
      if (request.customerId !== undefined)
        throw invalidInput('Only a client is bound to a customer', [
          { path: 'customerId', message: 'only for the role client' },
        ]);
      return null;
    }
    if (request.customerId === undefined)
      throw invalidInput('A client needs a customer', [
        { path: 'customerId', message: 'Required for a client' },
      ]);
    if (!(await this.deps.customerExists(organizationId, request.customerId)))
      throw invalidInput(`No customer ${request.customerId}`, [
        { path: 'customerId', message: `no customer ${request.customerId}` },
      ]);
    return request.customerId;
  }

  /** Stores the invitation and mails its link; an invitation whose mail did not go is deleted again. */
  async invite(actor: AuthContext, request: InvitationRequest): Promise<Invitation> {
    const mailer = requireMailer(await this.deps.mailRoutes.mailerFor(actor.organizationId), 'Invitations');
    // The owner rules: only an owner makes an owner (an admin token is no owner).
    if (request.role === 'owner' && actor.role !== 'owner')
      throw notAllowed('Only an owner may invite an owner.');
    const customerId = await this.customerOf(actor.organizationId, request);
    const existing = await this.deps.users.findByEmail(request.email);
    // Only the inviter's own organization's people may be told apart: they are listed to its admins anyway.
    if (existing?.organizationId === actor.organizationId)
      throw conflict('This e-mail address has an account in your organization already.');
    // One pending invitation per address: inviting it again sends that one again, with a new link.
    const pending = await this.deps.invitations.pendingFor(actor.organizationId, request.email, new Date());
    const sentAgoMs = pending ? Date.now() - (pending.sentAt ?? pending.createdAt).getTime() : 0;
    if (pending && sentAgoMs < this.deps.resendAfterMs)
      throw tooMany(
        `An invitation to this address is pending, sent ${Math.floor(sentAgoMs / 1000)} s ago: it is sent again at most every ${this.deps.resendAfterMs / 1000} s.`,
        'invitation-resend',
        (this.deps.resendAfterMs - sentAgoMs) / 1000,
      );
    await this.deps.mailBudget.take(actor.organizationId, [request.email], 'invitation');
    const { invitation, token } = pending
      ? await this.deps.invitations.reissue(pending, { role: request.role, customerId })
      : await this.deps.invitations.create({
          organizationId: actor.organizationId,
          email: request.email,
          role: request.role,
          customerId,
        });
    try {
      await mailer.send(
        existing
          ? accountElsewhereMail(invitation)
          : invitationMail(invitation, linkWithToken(this.deps.mail, 'accept-invitation', token)),
      );
    } catch (error) {
      await this.deps.invitations.delete(invitation);
      this.deps.log.warn(
        {
          invitationId: invitation.id,
          reason: 'sending the mail failed',
          ...mailFailureOf(error),
        },
        'invitation e-mail not sent',
      );
      throw mailNotSent('invitation');
    }
    return invitation;
  }

  /**
   * Deletes invitations that can no longer be used: expired more than EXPIRED_INVITATION_KEPT_MS
   * ago, or used (their e-mail has an account in the invitation's organization: accepted, made by
   * the CLI, or an acceptance that stopped before its invitation was deleted; one whose address has
   * an account elsewhere stays listed until it lapses, as an unanswered one does, so the inviter
   * learns nothing of another organization), each by primary key with its token's key_lookups
   * entry. Reads at most `batch` invitations a pass, going on after the last one a later pass
   * (`afterId`), from the start again once past the end.
   */
  async purge(
    now: Date,
    afterId = 0,
    batch = 500,
  ): Promise<{ expired: number; used: number; nextAfterId: number }> {
    const page = await this.deps.invitations.pageAfter(afterId, batch);
    const cutoff = now.getTime() - EXPIRED_INVITATION_KEPT_MS;
    let expired = 0;
    let used = 0;
    for (const invitation of page) {
      if (invitation.expiresAt.getTime() <= cutoff) {
        if (await this.deps.invitations.delete(invitation)) expired++;
      } else if (
        (await this.deps.users.findByEmail(invitation.email))?.organizationId === invitation.organizationId
      ) {
        if (await this.deps.invitations.delete(invitation)) used++;
      }
    }
    const last = page.at(-1);
    return { expired, used, nextAfterId: page.length < batch || !last ? 0 : last.id };
  }

  list(organizationId: number): Promise<Invitation[]> {
    return this.deps.invitations.list(organizationId);
  }

  async withdraw(organizationId: number, id: number): Promise<void> {
    const invitation = await this.deps.invitations.findById(organizationId, id);
    if (!invitation || !(await this.deps.invitations.delete(invitation)))
      throw notFound(`No invitation ${id}`);
  }

  /**
   * Makes the invited user with this name and password and opens their session. The user's unique
   * e-mail makes the link single-use even when two acceptances race: the second finds it taken.
   */
  async accept(
    request: { token: string; name: string; password: string },
    client: ClientInfo,
  ): Promise<{ sessionId: string; user: User }> {
    const invitation = await this.deps.invitations.findByTokenHash(hashOfToken(request.token));
    if (!invitation || invitation.expiresAt.getTime() <= Date.now()) throw unusableToken();
    // After the token (it names whose password it is), before anything is used up: a refused password leaves the link working.
    await this.deps.passwords.check(request.password, invitation);
    const created = await this.deps.users
      .create(
        {
          organizationId: invitation.organizationId,
          email: invitation.email,
          name: request.name,
          role: invitation.role,
          customerId: invitation.customerId,
        },
        await this.deps.passwords.hash(request.password),
      )
      .catch((error: unknown) => {
        if (error instanceof KeyTakenError) return null;
        throw error;
      });
    await this.deps.invitations.delete(invitation);
    if (!created) throw unusableToken();
    const opened = await this.deps.sessions.openSession(created, client);
    this.deps.log.info({ userId: created.id, invitationId: invitation.id }, 'invitation accepted');
    return opened;
  }
}
