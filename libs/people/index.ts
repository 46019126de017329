export { AccountPasswords } from './account-passwords.js';
export {
  EXPIRED_INVITATION_KEPT_MS,
  InvitationRepository,
  invitationIndexes,
  invitationView,
  toInvitationView,
} from './invitation.repository.js';
export { createInvitationBody } from './invitation.schema.js';
export { Invitations } from './invitations.js';
export { DEVICE_COOKIE, DEVICE_REMEMBERED_MS, KnownDevices } from './known-devices.js';
export {
  linkWithToken,
  type PeopleMailRoutes,
  peopleMailRoutes,
  pooledSmtpMailer,
  smtpMailer,
} from './mailer.js';
export { meView } from './me.schema.js';
export { oneTimeToken } from './one-time-token.js';
export { generatePassword, hashPassword, PasswordHasher } from './password.js';
export { newPassword, passwordProblem } from './password-policy.js';
export { PASSWORD_RESET_MAILS_PER_HOUR, PasswordReset } from './password-reset.js';
export { normalizeEmail } from './person.schema.js';
export { type SessionLimits, SessionStore } from './session-store.js';
export { SignIn } from './sign-in.js';
export { SIGN_IN_WINDOW_MS, signInBudgets } from './sign-in-budgets.js';
export { TwoFactor } from './two-factor.js';
export { TwoFactorRepository } from './two-factor.repository.js';
export { recoveryCodesView, twoFactorCodeBody, twoFactorEnrolmentView } from './two-factor.schema.js';
export { USERS, UserRepository, userIndexes, userRevisions } from './user.repository.js';
export {
  loginBody,
  type NewUser,
  newUser,
  personName,
  sessionView,
  signedInView,
  toUserView,
  type User,
  updateUserBody,
  userView,
} from './user.schema.js';
export { UserAdministration } from './user-admin.js';
