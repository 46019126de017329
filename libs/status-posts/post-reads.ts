import type { PagePosts, PostInput } from '../status-pages/index.js';
import { renderMarkdown } from './markdown.js';
import type { StatusPostDocument, StatusPostRepository } from './status-post.repository.js';
import type { PostView } from './status-post.schema.js';

/** How many resolved posts a page lists in its recent history. */
const RECENT_RESOLVED = 20;

/** A post as pages show it: its updates newest first, each message rendered and sanitized. */
export function postInput(post: StatusPostDocument): PostInput {
  return {
    id: post.id,
    title: post.title,
    status: post.status,
    components: post.components,
    createdAt: post.createdAt,
    updatedAt: post.updatedAt,
    resolvedAt: post.resolvedAt,
    updates: [...post.updates].reverse().map((update) => ({
      id: update.id,
      status: update.status,
      message: update.message,
      html: renderMarkdown(update.message),
      createdAt: update.createdAt,
      editedAt: update.editedAt,
    })),
  };
}

/** The posts public pages show, read by primary key (what a page's builder is given). */
export class PostReads implements PagePosts {
  constructor(private readonly posts: StatusPostRepository) {}

  async shown(organizationId: number, pageId: number, since: Date): Promise<PostInput[]> {
    const [open, resolved] = await Promise.all([
      this.posts.openOf(organizationId, pageId),
      this.posts.resolvedSince(organizationId, pageId, since, RECENT_RESOLVED),
    ]);
    return [...open, ...resolved].map(postInput);
  }

  async month(organizationId: number, pageId: number, from: Date, to: Date): Promise<PostInput[]> {
    return (await this.posts.begunBetween(organizationId, pageId, from, to)).map(postInput);
  }

  async one(organizationId: number, pageId: number, postId: number): Promise<PostInput | null> {
    const post = await this.posts.find(organizationId, pageId, postId);
    return post ? postInput(post) : null;
  }
}

/** A post as the API shows it to the agency. */
export function toPostView(
  post: StatusPostDocument,
  slug: string,
  names: ReadonlyMap<number, string>,
): PostView {
  return {
    id: post.id,
    pageId: post.pageId,
    title: post.title,
    status: post.status,
    components: post.components.map((c) => ({
      id: c.websiteId,
      name: names.get(c.websiteId) ?? null,
      impact: c.impact,
    })),
    incidentId: post.incidentId,
    url: `/status/${slug}/incidents/${post.id}`,
    resolvedAt: post.resolvedAt?.toISOString() ?? null,
    createdAt: post.createdAt.toISOString(),
    updatedAt: post.updatedAt.toISOString(),
    updates: [...post.updates].reverse().map((update) => ({
      id: update.id,
      status: update.status,
      message: update.message,
      html: renderMarkdown(update.message),
      components: update.components?.map((c) => ({ id: c.websiteId, impact: c.impact })) ?? null,
      createdAt: update.createdAt.toISOString(),
      editedAt: update.editedAt?.toISOString() ?? null,
    })),
  };
}
