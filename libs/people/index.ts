export { customerCallerRoutes } from './customer-gates.js';
export { generatePassword, hashPassword, passwordProblem } from './password.js';
export { sessionRoutes } from './session.routes.js';
export { type SessionLifetimes, SessionStore } from './session-store.js';
export { SIGN_IN_WINDOW_MS, SignIn } from './sign-in.js';
export { USERS, UserRepository, userIndexes } from './user.repository.js';
export { type NewUser, newUser, normalizeEmail, toUserView, type User } from './user.schema.js';
export { UserAdministration } from './user-admin.js';
export { userRoutes } from './users.routes.js';
