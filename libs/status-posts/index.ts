export { renderMarkdown, sanitizePostHtml } from './markdown.js';
export { PostReads, postInput, toPostView } from './post-reads.js';
export { REOPEN_DAYS, type StatusMove, statusMove } from './post-status.js';
export {
  MAX_POSTS_PER_PAGE,
  STATUS_POSTS,
  type StatusPostDocument,
  StatusPostRepository,
  type StatusPostUpdate,
  statusPostIndexes,
} from './status-post.repository.js';
export {
  addUpdateBody,
  createPostBody,
  draftQuery,
  listPostsQuery,
  MAX_MESSAGE_CHARS,
  MAX_UPDATES_PER_POST,
  patchPostBody,
  patchUpdateBody,
  postDraftView,
  postPage,
  postParams,
  postView,
  previewBody,
  previewView,
  updateParams,
} from './status-post.schema.js';
export {
  type PostChange,
  type PostChangeListener,
  type PostIncident,
  type StatusPostDeps,
  StatusPostService,
} from './status-post.service.js';
