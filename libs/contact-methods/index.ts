export { accepts } from './contact-hours.js';
export {
  ContactMethodRepository,
  contactMethodIndexes,
  contactMethodRevisions,
} from './contact-method.repository.js';
export {
  CONTACT_EVENTS,
  CONTACT_METHOD_TYPES,
  type ContactEvent,
  type ContactMethodDocument,
  type ContactMethodType,
  contactMethodView,
  createContactMethodBody,
  patchContactMethodBody,
  toContactMethodView,
  verifyContactMethodBody,
} from './contact-method.schema.js';
export { ContactMethodService, MAX_METHODS_PER_PERSON } from './contact-method.service.js';
export { CARRIER_NEEDED, type PersonMailer, PersonReach, type ReachOutcome } from './person-reach.js';
