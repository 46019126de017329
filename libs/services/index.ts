export { openProcessServices, type ProcessServices } from './process-services.js';
export { ALL_INDEXES, createServices, type Services } from './services.js';
