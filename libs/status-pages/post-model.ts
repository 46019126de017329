import { type MessageKey, type Translator, translator } from './i18n/catalog.js';
import {
  type Impact,
  impactText,
  type PostInput,
  type PublicPost,
  postStatusText,
  worstImpact,
} from './post-view.js';

/** Incident posts on a page (pure): what visitors read of them, and what they do to the page's state. */

export interface Overall {
  state: 'operational' | 'degraded' | 'partial-outage' | 'major-outage' | 'maintenance' | 'unknown';
  text: string;
}

/** An incident post as visitors read it; components no longer on the page are left out. */
export function shownPost(
  post: PostInput,
  names: ReadonlyMap<number, string>,
  slug: string,
  t: Translator = translator(),
): PublicPost {
  const components = post.components.filter((c) => names.has(c.websiteId));
  return {
    id: post.id,
    title: post.title,
    status: post.status,
    statusText: postStatusText(post.status, t),
    impact: post.resolvedAt === null ? worstImpact(components.map((c) => c.impact)) : null,
    components: components.map((c) => ({
      name: names.get(c.websiteId) ?? '',
      impact: c.impact,
      impactText: impactText(c.impact, t),
    })),
    startedAt: post.createdAt.toISOString(),
    updatedAt: post.updatedAt.toISOString(),
    resolvedAt: post.resolvedAt?.toISOString() ?? null,
    url: `/status/${slug}/incidents/${post.id}`,
    updates: [...post.updates]
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
      .map((u) => ({
        id: u.id,
        status: u.status,
        statusText: postStatusText(u.status, t),
        at: u.createdAt.toISOString(),
        editedAt: u.editedAt?.toISOString() ?? null,
        message: u.message,
        html: u.html,
      })),
  };
}

/** Open posts first (newest first), then resolved ones by their resolution, newest first. */
export function orderedPosts(posts: readonly PublicPost[]): PublicPost[] {
  const open = posts
    .filter((p) => p.resolvedAt === null)
    .sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  const resolved = posts
    .filter((p) => p.resolvedAt !== null)
    .sort((a, b) => (b.resolvedAt ?? '').localeCompare(a.resolvedAt ?? ''));
  return [...open, ...resolved];
}

const OVERALL_OF_IMPACT: Record<Impact, { state: Overall['state']; key: MessageKey }> = {
  degraded: { state: 'degraded', key: 'overall.degraded' },
  partial_outage: { state: 'partial-outage', key: 'overall.partialOutage' },
  major_outage: { state: 'major-outage', key: 'overall.majorOutage' },
};
const OVERALL_RANK: Record<Overall['state'], number> = {
  unknown: 0,
  operational: 1,
  maintenance: 2,
  degraded: 3,
  'partial-outage': 4,
  'major-outage': 5,
};

/** The checks' overall state, or an open post's worst impact when that is worse (the agency knows more). */
export function overallWithPosts(
  checked: Overall,
  posts: readonly PublicPost[],
  t: Translator = translator(),
): Overall {
  const impact = worstImpact(posts.flatMap((p) => (p.impact ? [p.impact] : [])));
  if (!impact) return checked;
  const told = OVERALL_OF_IMPACT[impact];
  return OVERALL_RANK[told.state] > OVERALL_RANK[checked.state]
    ? { state: told.state, text: t.text(told.key) }
    : checked;
}
