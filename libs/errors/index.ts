export {
  conflict,
  DomainError,
  type DomainErrorKind,
  type DomainErrorOptions,
  type FieldError,
  invalidInput,
  notAllowed,
  notFound,
  tooMany,
} from './domain-error.js';
export { errorMessage } from './error-message.js';
