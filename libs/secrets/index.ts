export { type ResealReport, resealCollection, type SealedField } from './reseal.js';
export { keyIdOf, type SealedSecret, SecretBox, SecretUnreadableError } from './secret-box.js';
