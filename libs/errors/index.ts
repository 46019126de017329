export {
  conflict,
  DomainError,
  type DomainErrorKind,
  type DomainErrorOptions,
  type FieldError,
  invalidInput,
  notAllowed,
  notFound,
} from './domain-error.js';
