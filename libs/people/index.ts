export { accountLinkRoutes } from './account-link.routes.js';
export { customerCallerRoutes } from './customer-gates.js';
export { withTwoFactorEnrolment } from './enrolment-gate.js';
export {
  EXPIRED_INVITATION_KEPT_MS,
  InvitationRepository,
  invitationIndexes,
} from './invitation.repository.js';
export { invitationRoutes } from './invitation.routes.js';
export { Invitations } from './invitations.js';
export { linkWithToken, type PeopleMailRoutes, peopleMailRoutes, smtpMailer } from './mailer.js';
export { generatePassword, hashPassword, passwordProblem } from './password.js';
export { PASSWORD_RESET_MAILS_PER_HOUR, PasswordReset } from './password-reset.js';
export { sessionRoutes } from './session.routes.js';
export { type SessionLifetimes, SessionStore } from './session-store.js';
export { SIGN_IN_WINDOW_MS, SignIn } from './sign-in.js';
export { TwoFactor } from './two-factor.js';
export { TwoFactorRepository } from './two-factor.repository.js';
export { twoFactorRoutes } from './two-factor.routes.js';
export { USERS, UserRepository, userIndexes } from './user.repository.js';
export { type NewUser, newUser, normalizeEmail, toUserView, type User } from './user.schema.js';
export { UserAdministration } from './user-admin.js';
export { userRoutes } from './users.routes.js';
