export { decimalId, decimalInteger, decimalIntegers, idParams, resourceId, uniqueArray } from './params.js';
export {
  type AuthContext,
  type Authenticate,
  type AuthenticateSession,
  type ClientInfo,
  hasScope,
  ROLES,
  type Role,
  SCOPES,
  type Scope,
  SESSION_COOKIE,
  scopesOfRole,
} from './scopes.js';
export { cleanName, emailAddress, isNameText, lineText, nameText, proseText, UNNAMED } from './text.js';
export { absoluteHttpUrl } from './url.js';
export { type InputLocation, invalidFields, parseInput, patchBody, validate } from './validation.js';
