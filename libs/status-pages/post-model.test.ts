import { describe, expect, it } from 'vitest';
import { orderedPosts, overallWithPosts, shownPost } from './post-model.js';
import type { PostInput } from './post-view.js';

const at = (iso: string) => new Date(iso);
const input = (
  id: number,
  resolvedAt: string | null,
  impact: 'degraded' | 'major_outage' = 'major_outage',
): PostInput => ({
  id,
  title: `Post ${id}`,
  status: resolvedAt ? 'resolved' : 'identified',
  components: [
    { websiteId: 1, impact },
    { websiteId: 99, impact: 'major_outage' },
  ],
  createdAt: at(`2026-06-0${id}T10:00:00Z`),
  updatedAt: at(`2026-06-0${id}T11:00:00Z`),
  resolvedAt: resolvedAt ? at(resolvedAt) : null,
  updates: [
    {
      id: 'a',
      status: 'investigating',
      message: 'm1',
      html: '<p>m1</p>',
      createdAt: at(`2026-06-0${id}T10:00:00Z`),
      editedAt: null,
    },
    {
      id: 'b',
      status: 'identified',
      message: 'm2',
      html: '<p>m2</p>',
      createdAt: at(`2026-06-0${id}T11:00:00Z`),
      editedAt: null,
    },
  ],
});
const names = new Map([[1, 'Shop']]);

describe('incident posts on a page', () => {
  it('a post shows its page’s components only, its worst impact while open, updates newest first, its permalink', () => {
    const post = shownPost(input(3, null), names, 'acme');
    expect(post.components).toEqual([{ name: 'Shop', impact: 'major_outage', impactText: 'Major outage' }]);
    expect(post.impact).toBe('major_outage');
    expect(post.updates.map((u) => u.id)).toEqual(['b', 'a']);
    expect(post.url).toBe('/status/acme/incidents/3');
    expect(shownPost(input(3, '2026-06-03T12:00:00Z'), names, 'acme').impact).toBeNull();
  });

  it('open posts first, newest first; then resolved ones by their resolution, newest first', () => {
    const posts = [
      input(1, '2026-06-05T00:00:00Z'),
      input(2, null),
      input(3, '2026-06-04T00:00:00Z'),
      input(4, null),
    ].map((p) => shownPost(p, names, 's'));
    expect(orderedPosts(posts).map((p) => p.id)).toEqual([4, 2, 1, 3]);
  });

  it('an open post’s impact makes the overall state worse, never better', () => {
    const operational = { state: 'operational' as const, text: 'All systems operational' };
    const major = shownPost(input(2, null), names, 's');
    const degraded = shownPost(input(2, null, 'degraded'), new Map([[1, 'Shop']]), 's');
    expect(overallWithPosts(operational, [major]).state).toBe('major-outage');
    expect(
      overallWithPosts({ state: 'partial-outage', text: 'Partial outage' }, [
        { ...degraded, components: degraded.components.slice(0, 1), impact: 'degraded' },
      ]).state,
    ).toBe('partial-outage');
    expect(overallWithPosts(operational, [shownPost(input(2, '2026-06-02T12:00:00Z'), names, 's')])).toBe(
      operational,
    );
  });
});
