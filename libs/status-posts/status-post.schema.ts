import { z } from 'zod';
import { decimalId, decimalInteger, nameText, patchBody, proseText, resourceId } from '../contract/index.js';
import { IMPACTS, POST_STATUSES } from '../status-pages/index.js';

/** A post's updates at most, and its message's length. */
export const MAX_UPDATES_PER_POST = 200;
export const MAX_MESSAGE_CHARS = 10_000;

const status = z
  .enum(POST_STATUSES)
  .describe(
    'investigating → identified → monitoring → resolved. Open statuses may follow each other either way; resolved closes the post; an open status after resolved reopens it (within 7 days of its resolution)',
  );
const message = proseText(MAX_MESSAGE_CHARS)
  .min(1)
  .describe('Markdown; raw HTML is shown as text, links only http(s) and mailto, no images');

const components = z
  .array(
    z.strictObject({
      id: resourceId().describe('A website on the page'),
      impact: z.enum(IMPACTS),
    }),
  )
  .max(500)
  .refine((list) => new Set(list.map((c) => c.id)).size === list.length, {
    message: 'each website once',
  })
  .describe('The page’s websites affected, each with its impact');

export const createPostBody = z
  .strictObject({
    title: nameText(200),
    components,
    status,
    message,
    fromIncidentId: z
      .uuid()
      .optional()
      .describe('The automatic incident this post tells of (see GET …/incident-draft); kept as a link'),
  })
  .meta({ id: 'IncidentPostCreate' });
export type CreatePostInput = z.output<typeof createPostBody>;

export const addUpdateBody = z
  .strictObject({
    status,
    message,
    components: components.optional().describe('The affected websites from now on; absent: unchanged'),
  })
  .meta({ id: 'IncidentPostUpdateCreate' });
export type AddUpdateInput = z.output<typeof addUpdateBody>;

export const patchPostBody = patchBody(
  z.strictObject({
    title: nameText(200).optional(),
    components: components.optional(),
  }),
).meta({ id: 'IncidentPostEdit' });
export type PatchPostInput = z.output<typeof patchPostBody>;

export const patchUpdateBody = z.strictObject({ message }).meta({ id: 'IncidentPostUpdateEdit' });

export const postParams = z.strictObject({ id: decimalId(), postId: decimalId() });
export const updateParams = postParams.extend({
  update: z.uuid().describe('The update’s id'),
});

export const listPostsQuery = z.strictObject({
  limit: decimalInteger({ min: 1, max: 100 }).default(20),
  before: decimalId()
    .optional()
    .describe('The next page: posts older than this post id (the last one listed)'),
});

export const draftQuery = z.strictObject({
  incident: z.uuid().describe('The automatic incident to tell of (its id)'),
});

export const previewBody = z.strictObject({ message }).meta({ id: 'IncidentPostPreview' });

const updateView = z.object({
  id: z.string(),
  status: z.enum(POST_STATUSES),
  message: z.string(),
  html: z.string().describe('The message as the page shows it (rendered, sanitized)'),
  components: z
    .array(z.object({ id: z.number().int(), impact: z.enum(IMPACTS) }))
    .nullable()
    .describe('The components this update set; null: unchanged'),
  createdAt: z.iso.datetime(),
  editedAt: z.iso.datetime().nullable(),
});

export const postView = z
  .object({
    id: z.number().int(),
    pageId: z.number().int(),
    title: z.string(),
    status: z.enum(POST_STATUSES),
    components: z.array(
      z.object({
        id: z.number().int(),
        name: z.string().nullable().describe('Null when the website left the page'),
        impact: z.enum(IMPACTS),
      }),
    ),
    incidentId: z.string().nullable().describe('The automatic incident it was published from'),
    url: z.string().describe('Its permalink on the public page: /status/{slug}/incidents/{id}'),
    resolvedAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    updates: z.array(updateView).describe('Newest first'),
  })
  .meta({ id: 'IncidentPost' });
export type PostView = z.input<typeof postView>;

export const postPage = z
  .object({
    items: z.array(postView),
    nextBefore: z.number().int().nullable().describe('Pass as `before` for older posts; null: no more'),
  })
  .meta({ id: 'IncidentPostPage' });

export const postDraftView = z
  .object({
    title: z.string(),
    components: z.array(z.object({ id: z.number().int(), impact: z.enum(IMPACTS) })),
    status: z.enum(POST_STATUSES),
    message: z.string(),
    fromIncidentId: z.string(),
  })
  .describe('A post’s fields prefilled from the incident: edit them, then POST …/incidents')
  .meta({ id: 'IncidentPostDraft' });

export const previewView = z.object({ html: z.string() }).meta({ id: 'IncidentPostPreviewHtml' });
