export { keyIdOf, type SealedSecret, SecretBox, SecretUnreadableError } from './secret-box.js';
