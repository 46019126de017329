import { z } from 'zod';
import { escapeHtml, escapeXml } from '../../../libs/connectors/index.js';
import { DomainError, errorMessage } from '../../../libs/errors/index.js';
import { ACK_TOKEN, type AckLinks } from '../../../libs/escalation/index.js';
import {
  type AppContext,
  defineRoute,
  OtherAnswer,
  type Route,
  setContentSecurityPolicy,
} from '../../../libs/http/index.js';
import type { Logger } from '../../../libs/logging/index.js';
import type { MonitorStateRepository } from '../../../libs/monitoring/index.js';
import type { Caller, StoredIncident } from './incident-actions.js';

const TAGS = ['On-call'];
const HTML = 'text/html; charset=utf-8';
const TWIML = 'text/xml; charset=utf-8';
const tokenParams = z.strictObject({
  token: z.string().max(100).describe('The token of the link in the alert'),
});
/** Twilio posts the call's keypresses form-encoded; little else. */
const CALLBACK_BODY = { maxBytes: 16_384, limitBytes: 16_384 };

/** A page for the person who opened the link: no framing, no script, no token in a Referer. */
function page(ctx: AppContext, title: string, body: string, status = 200): string | OtherAnswer {
  setContentSecurityPolicy(
    ctx,
    ["default-src 'none'", "style-src 'unsafe-inline'", "form-action 'self'", "base-uri 'none'"],
    {
      origins: [],
    },
  );
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.type = HTML;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1d2939}button{font:inherit;padding:.6rem 1.2rem;border:0;border-radius:6px;background:#1570ef;color:#fff;cursor:pointer}p.muted{color:#475467}</style></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
  return status === 200 ? html : new OtherAnswer(status, html);
}

export interface AlertAckDeps {
  links: AckLinks;
  states: MonitorStateRepository;
  acknowledge(
    organizationId: number,
    incident: StoredIncident,
    caller: Caller,
    note: string | null,
  ): Promise<unknown>;
  person(organizationId: number, userId: number): Promise<{ name: string } | null>;
  /** The incident's subject in words ("Shop is down"). */
  describe(incident: StoredIncident): Promise<string>;
  logger: Logger;
}

type Outcome = { ok: true; subject: string } | { ok: false; status: number; title: string; detail: string };

/**
 * The links in pages (mail, SMS, push) that acknowledge an incident as the person paged: a GET
 * shows a button (mail scanners open links), the POST acknowledges; a call's keypress of 1 comes
 * to `…/voice` as the provider's callback and is answered with TwiML.
 */
export function alertAckRoutes(deps: AlertAckDeps): Route[] {
  const found = async (token: string) => {
    const link = ACK_TOKEN.test(token) ? await deps.links.find(token, new Date()) : null;
    if (!link) return null;
    const incident = await deps.states.incident(link.organizationId, link.incidentId);
    return incident && { link, incident };
  };

  const acknowledge = async (token: string): Promise<Outcome> => {
    const hit = await found(token);
    if (!hit)
      return {
        ok: false,
        status: 404,
        title: 'This link no longer works',
        detail: 'It has expired or was never valid. Open the incident in webmon to acknowledge it.',
      };
    const { link, incident } = hit;
    const subject = await deps.describe(incident);
    if (incident.acknowledgement)
      return {
        ok: false,
        status: 409,
        title: 'Already acknowledged',
        detail: `${subject}: acknowledged by ${incident.acknowledgement.by.name}.`,
      };
    if (incident.resolvedAt)
      return {
        ok: false,
        status: 409,
        title: 'Already resolved',
        detail: `${subject}: it is over, nothing to do.`,
      };
    const person = await deps.person(link.organizationId, link.userId);
    if (!person)
      return {
        ok: false,
        status: 404,
        title: 'This link no longer works',
        detail: 'Its person is no longer in the organization.',
      };
    await deps.links.use(link, new Date());
    try {
      await deps.acknowledge(
        link.organizationId,
        incident,
        { type: 'user', id: link.userId, name: person.name },
        'Acknowledged from the alert',
      );
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'conflict')
        return { ok: false, status: 409, title: 'Not acknowledged', detail: error.detail };
      throw error;
    }
    deps.logger.info({ incident: incident.id, userId: link.userId }, 'incident acknowledged from an alert');
    return { ok: true, subject };
  };

  return [
    defineRoute({
      method: 'get',
      path: '/api/alerts/ack/:token',
      operationId: 'showAlertAcknowledgement',
      summary: 'The page an alert’s acknowledge link opens: a button that acknowledges',
      tags: TAGS,
      access: 'public',
      params: tokenParams,
      credentialInPath: true,
      success: { status: 200, description: 'A page', schema: z.string(), contentType: HTML },
      otherResponses: {
        404: { description: 'An unknown or expired link', body: { schema: z.string(), contentType: HTML } },
      },
      handle: async ({ params, ctx }) => {
        const hit = await found(params.token);
        if (!hit)
          return page(
            ctx,
            'This link no longer works',
            '<p>It has expired or was never valid. Open the incident in webmon to acknowledge it.</p>',
            404,
          );
        const subject = escapeHtml(await deps.describe(hit.incident));
        if (hit.incident.acknowledgement)
          return page(
            ctx,
            'Already acknowledged',
            `<p>${subject}: acknowledged by ${escapeHtml(hit.incident.acknowledgement.by.name)}.</p>`,
          );
        if (hit.incident.resolvedAt)
          return page(ctx, 'Already resolved', `<p>${subject}: it is over, nothing to do.</p>`);
        return page(
          ctx,
          'Acknowledge the alert',
          `<p>${subject}.</p><p class="muted">Acknowledging says you are on it: the escalation stops and nobody else is paged.</p><form method="post"><button type="submit">Acknowledge</button></form>`,
        );
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/alerts/ack/:token',
      operationId: 'acknowledgeFromAlert',
      summary: 'Acknowledge the incident as the person the alert paged (once)',
      tags: TAGS,
      access: 'public',
      params: tokenParams,
      credentialInPath: true,
      rawBody: CALLBACK_BODY,
      success: { status: 200, description: 'A page saying so', schema: z.string(), contentType: HTML },
      otherResponses: {
        404: { description: 'An unknown or expired link', body: { schema: z.string(), contentType: HTML } },
        409: {
          description: 'Already acknowledged or resolved',
          body: { schema: z.string(), contentType: HTML },
        },
      },
      handle: async ({ params, ctx }) => {
        const outcome = await acknowledge(params.token);
        if (!outcome.ok)
          return page(ctx, outcome.title, `<p>${escapeHtml(outcome.detail)}</p>`, outcome.status);
        return page(
          ctx,
          'Acknowledged',
          `<p>${escapeHtml(outcome.subject)}: you are on it. The escalation has stopped.</p>`,
        );
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/alerts/ack/:token/voice',
      operationId: 'acknowledgeFromCall',
      summary: 'A call’s keypress (Twilio’s Gather callback): 1 acknowledges',
      tags: TAGS,
      access: 'public',
      params: tokenParams,
      credentialInPath: true,
      rawBody: CALLBACK_BODY,
      success: {
        status: 200,
        description: 'TwiML telling the caller what happened',
        schema: z.string(),
        contentType: TWIML,
      },
      handle: async ({ params, ctx }) => {
        const form = new URLSearchParams((ctx.state.rawBody?.bytes ?? Buffer.alloc(0)).toString('utf8'));
        ctx.type = TWIML;
        ctx.set('Cache-Control', 'no-store');
        let said: string;
        if (form.get('Digits') !== '1') said = 'Nothing was acknowledged. Goodbye.';
        else {
          const outcome = await acknowledge(params.token).catch((error: unknown) => {
            deps.logger.warn({ err: errorMessage(error) }, 'acknowledging from a call failed');
            return {
              ok: false as const,
              status: 500,
              title: 'Not acknowledged',
              detail: 'Something went wrong: acknowledge in webmon.',
            };
          });
          said = outcome.ok
            ? 'Acknowledged. The escalation has stopped. Goodbye.'
            : `${outcome.title}. ${outcome.detail}`;
        }
        return `<?xml version="1.0" encoding="UTF-8"?><Response><Say>${escapeXml(said)}</Say><Hangup/></Response>`;
      },
    }),
  ];
}
