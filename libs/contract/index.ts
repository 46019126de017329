export { decimalId, decimalInteger, decimalIntegers, idParams, resourceId, uniqueArray } from './params.js';
export { type AuthContext, type Authenticate, hasScope, SCOPES, type Scope } from './scopes.js';
export { absoluteHttpUrl } from './url.js';
export { type InputLocation, invalidFields, parseInput, patchBody, validate } from './validation.js';
