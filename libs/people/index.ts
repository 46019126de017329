export { accountLinkRoutes } from './account-link.routes.js';
export { AccountPasswords } from './account-passwords.js';
export {
  EXPIRED_INVITATION_KEPT_MS,
  InvitationRepository,
  invitationIndexes,
} from './invitation.repository.js';
export { invitationRoutes } from './invitation.routes.js';
export { Invitations } from './invitations.js';
export { KnownDevices } from './known-devices.js';
export { linkWithToken, type PeopleMailRoutes, peopleMailRoutes, smtpMailer } from './mailer.js';
export { generatePassword, hashPassword, PasswordHasher } from './password.js';
export { passwordProblem } from './password-policy.js';
export { PASSWORD_RESET_MAILS_PER_HOUR, PasswordReset } from './password-reset.js';
export { sessionRoutes } from './session.routes.js';
export { type SessionLimits, SessionStore } from './session-store.js';
export { SignIn } from './sign-in.js';
export { SIGN_IN_WINDOW_MS, signInBudgets } from './sign-in-budgets.js';
export { TwoFactor } from './two-factor.js';
export { TwoFactorRepository } from './two-factor.repository.js';
export { twoFactorRoutes } from './two-factor.routes.js';
export { USERS, UserRepository, userIndexes } from './user.repository.js';
export { type NewUser, newUser, normalizeEmail, toUserView, type User } from './user.schema.js';
export { UserAdministration } from './user-admin.js';
export { userRoutes } from './users.routes.js';
