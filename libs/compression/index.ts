export { type CompressedForms, type ContentCoding, compress, StoredBody } from './stored-body.js';
