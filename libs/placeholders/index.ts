/**
 * Placeholders (`{{name}}`, `{{secret.NAME}}`) as browser journeys and API flows write them, and the
 * forms of a secret every output masks. Pure and without Node APIs: the browser app uses it too.
 */
export {
  fillPlaceholders,
  type Placeholder,
  type PlaceholderValues,
  placeholdersIn,
  SECRET_NAME,
  SECRET_REFERENCE,
  startsWithPlaceholder,
  unfilledPlaceholder,
  VALUE_NAME,
} from './placeholders.js';
export { MIN_MASKED_CHARS, maskSecrets, secretForms } from './secret-masks.js';
