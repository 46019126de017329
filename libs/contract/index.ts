export { decimalId, decimalInteger, idParams } from './params.js';
export { type AuthContext, type Authenticate, hasScope, SCOPES, type Scope } from './scopes.js';
export { absoluteHttpUrl } from './url.js';
export { type InputLocation, parseInput, patchBody, validate } from './validation.js';
