import { z } from 'zod';
import { type MessageKey, type Translator, translator } from './i18n/catalog.js';

/**
 * Incident posts as status pages show them: their statuses and impacts (the words a visitor reads)
 * and the public view of one, in the page's JSON twin. The posts themselves are libs/status-posts'.
 */

export const POST_STATUSES = ['investigating', 'identified', 'monitoring', 'resolved'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

export const IMPACTS = ['degraded', 'partial_outage', 'major_outage'] as const;
export type Impact = (typeof IMPACTS)[number];

const STATUS_KEY: Record<PostStatus, MessageKey> = {
  investigating: 'postStatus.investigating',
  identified: 'postStatus.identified',
  monitoring: 'postStatus.monitoring',
  resolved: 'postStatus.resolved',
};
/** A post's status in the page's words (English unless a page's translator is given). */
export const postStatusText = (status: PostStatus, t: Translator = translator()) =>
  t.text(STATUS_KEY[status]);

const IMPACT_KEY: Record<Impact, { alone: MessageKey; inline: MessageKey }> = {
  degraded: { alone: 'impact.degraded', inline: 'impactInline.degraded' },
  partial_outage: { alone: 'impact.partialOutage', inline: 'impactInline.partialOutage' },
  major_outage: { alone: 'impact.majorOutage', inline: 'impactInline.majorOutage' },
};
export const impactText = (impact: Impact, t: Translator = translator()) => t.text(IMPACT_KEY[impact].alone);
/** An impact within a sentence ("Shop: partial outage"). */
export const impactInlineText = (impact: Impact, t: Translator = translator()) =>
  t.text(IMPACT_KEY[impact].inline);

/** The worst of the impacts (null: none). */
export function worstImpact(impacts: readonly Impact[]): Impact | null {
  let worst: Impact | null = null;
  for (const impact of impacts)
    if (worst === null || IMPACTS.indexOf(impact) > IMPACTS.indexOf(worst)) worst = impact;
  return worst;
}

/** A post as a page's builder is given it: its update texts already rendered safe (`html`). */
export interface PostInput {
  id: number;
  title: string;
  status: PostStatus;
  components: ReadonlyArray<{ websiteId: number; impact: Impact }>;
  createdAt: Date;
  updatedAt: Date;
  resolvedAt: Date | null;
  updates: ReadonlyArray<{
    id: string;
    status: PostStatus;
    message: string;
    html: string;
    createdAt: Date;
    editedAt: Date | null;
  }>;
}

export const publicPostView = z
  .object({
    id: z.number().int(),
    title: z.string(),
    status: z.enum(POST_STATUSES),
    statusText: z.string(),
    impact: z.enum(IMPACTS).nullable().describe('The worst impact on its components'),
    components: z.array(z.object({ name: z.string(), impact: z.enum(IMPACTS), impactText: z.string() })),
    startedAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    resolvedAt: z.iso.datetime().nullable(),
    url: z.string().describe('Its permalink, a path of the page: /status/{slug}/incidents/{id}'),
    updates: z
      .array(
        z.object({
          id: z.string(),
          status: z.enum(POST_STATUSES),
          statusText: z.string(),
          at: z.iso.datetime(),
          editedAt: z.iso.datetime().nullable(),
          message: z.string().describe('As written (Markdown)'),
          html: z
            .string()
            .describe('The message rendered and sanitized (no script, links http(s)/mailto only)'),
        }),
      )
      .describe('Newest first'),
  })
  .meta({ id: 'PublicIncidentPost' });
export type PublicPost = z.output<typeof publicPostView>;
