import {
  accepts,
  type ContactEvent,
  type ContactMethodDocument,
  type PersonReach,
} from '../contact-methods/index.js';
import { errorMessage } from '../errors/index.js';
import { dependentsToldTo, type EventPayload, isDownEvent, isUpEvent } from '../events/index.js';
import type { Logger } from '../logging/index.js';
import { SYSTEM, type TimelineEntry } from '../monitoring/index.js';
import type { ChannelDocument } from '../notifications/index.js';
import type { AckLinks } from './ack-links.js';
import { closingMessage, pageMessage } from './alert-message.js';
import type { EscalationJobData, EscalationQueue } from './escalation.queue.js';
import {
  FIRST_STEP,
  type StepPosition,
  stepAfter,
  stepKey,
  stepLabel,
  waitAfterMs,
} from './escalation-plan.js';
import type { EscalationRun, EscalationRuns } from './escalation-run.repository.js';
import type { EscalationPolicyDocument, EscalationTarget } from './policy.schema.js';

/** What the runner reads and does outside itself. */
export interface EscalationPorts {
  /** The policy a website's alerts follow (its own, its customer's, the organization's), or null. */
  policyIdFor(organizationId: number, websiteId: number): Promise<number | null>;
  policy(organizationId: number, id: number): Promise<EscalationPolicyDocument | null>;
  /** Who is on call on the schedule at `at` (null: nobody, or no such schedule). */
  onCall(organizationId: number, scheduleId: number, at: Date): Promise<number | null>;
  person(organizationId: number, userId: number): Promise<{ id: number; name: string } | null>;
  methods(organizationId: number, userId: number): Promise<ContactMethodDocument[]>;
  channel(organizationId: number, channelId: number): Promise<ChannelDocument | null>;
  /** Whether the channel was sent the website's event itself (it covers the website, or the website lists it). */
  heardAlert(channel: ChannelDocument, event: EventPayload, websiteId: number): Promise<boolean>;
  /** Queues the event's delivery to a channel (idempotent by the payload's id). */
  deliver(channel: ChannelDocument, payload: EventPayload): Promise<void>;
  timeline(incidentId: string, entry: TimelineEntry): Promise<void>;
  /** The acknowledge link of a token, as people open it. */
  ackUrl(token: string): string;
}

/** A step claimed this long ago and not finished: its claimer died; the sweep finishes it. */
const STALLED_AFTER_MS = 60_000;

/**
 * Escalations in the notifier: an incident's first down starts its policy, each step notifies its
 * targets once and waits for an acknowledgement before the next; acknowledgement or recovery stops it.
 * Steps wait as delayed jobs (durable), MongoDB says which is due (so each runs once).
 */
export class EscalationRunner {
  constructor(
    private readonly deps: {
      runs: EscalationRuns;
      queue: EscalationQueue;
      links: AckLinks;
      reach: Pick<PersonReach, 'reach'>;
      ports: EscalationPorts;
      logger: Logger;
      /** Multiplies waits (tests shorten minutes to moments): ESCALATION_TIME_SCALE. */
      timeScale: number;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** What an event means to escalations: a first down starts one, a recovery or acknowledgement ends it. */
  async onEvent(event: EventPayload, websiteId: number): Promise<void> {
    const incident = event.data.incident;
    if (!incident) return;
    if (isDownEvent(event.type) && event.data.reminder !== true) return this.start(event, websiteId);
    if (isUpEvent(event.type)) return this.stop(incident, 'resolved', null);
    if (event.type === 'incident.acknowledged')
      return this.stop(incident, 'acknowledged', event.data.acknowledgement?.by ?? null);
  }

  private async start(event: EventPayload, websiteId: number): Promise<void> {
    const { ports } = this.deps;
    const incident = event.data.incident as string;
    const policyId = await ports.policyIdFor(event.organizationId, websiteId);
    if (policyId === null) return;
    const policy = await ports.policy(event.organizationId, policyId);
    if (!policy) return;
    const now = this.now();
    const run: EscalationRun = {
      _id: incident,
      organizationId: event.organizationId,
      websiteId,
      event,
      policy: { policyId: policy.id, name: policy.name, steps: policy.steps, repeat: policy.repeat },
      state: 'active',
      next: { ...FIRST_STEP, dueAt: now },
      sending: null,
      paged: [],
      startedAt: now,
      endedAt: null,
    };
    if (await this.deps.runs.start(run)) this.deps.logger.info({ incident, policyId }, 'escalation started');
    // Queued again when the run was there: a crash after storing it must not leave its first step unqueued.
    const stored = await this.deps.runs.find(incident);
    if (stored?.next)
      await this.deps.queue.schedule({ incidentId: incident, ...stored.next }, stored.next.dueAt);
  }

  /** Runs the step of a job if it is the one due (a job of a stopped run, or run twice, does nothing). */
  async step(job: EscalationJobData): Promise<void> {
    const run = await this.deps.runs.claim(job.incidentId, job, this.now());
    if (run) await this.carryOut(run, job);
  }

  /** Sends the step's notifications (each once), records it, and queues the next step. */
  private async carryOut(run: EscalationRun, at: StepPosition): Promise<void> {
    const step = run.policy.steps[at.step];
    if (!step) return;
    const label = stepLabel(run.policy, at);
    const outcomes: string[] = [];
    const paged: number[] = [];
    let reached = false;
    for (const target of step.targets) {
      try {
        const notified = await this.notify(run, at, target, label, paged);
        outcomes.push(...notified.lines);
        reached ||= notified.reached;
      } catch (error) {
        outcomes.push(`${describe(target)}: ${errorMessage(error)}`);
      }
    }
    const following = stepAfter(run.policy, at);
    // A step that reached nobody (nobody on call, no method taking alerts now) has nobody to wait
    // for: the next step of its round follows at once. A new round still waits, as `repeat` is
    // there to try again later (someone may be on call by then).
    const atOnce = following !== null && !reached && following.round === at.round;
    if (atOnce) outcomes.push('reached nobody: the next step follows at once');
    const now = this.now();
    await this.deps.ports
      .timeline(run._id, {
        key: `escalation:${stepKey(at)}`,
        at: now,
        kind: 'escalation',
        by: SYSTEM,
        region: null,
        text: `${run.policy.name}, ${label}: ${outcomes.join('; ') || 'nobody to notify'}`,
        escalation: { policyId: run.policy.policyId, policyName: run.policy.name, ...at },
      })
      .catch((error: unknown) =>
        this.deps.logger.warn(
          { incident: run._id, err: errorMessage(error) },
          'escalation step not on the timeline',
        ),
      );
    const next = following && {
      ...following,
      dueAt: new Date(now.getTime() + (atOnce ? 0 : waitAfterMs(step, this.deps.timeScale))),
    };
    await this.deps.runs.finish(run._id, at, next, paged, now);
    if (next) await this.deps.queue.schedule({ incidentId: run._id, ...following }, next.dueAt);
    this.deps.logger.info(
      { incident: run._id, step: stepKey(at), targets: step.targets.length },
      'escalation step sent',
    );
  }

  /** One target's notifications: a channel's delivery, or the person's (the schedule's on-call person's) pages. */
  private async notify(
    run: EscalationRun,
    at: StepPosition,
    target: EscalationTarget,
    label: string,
    paged: number[],
  ): Promise<{ lines: string[]; reached: boolean }> {
    const { ports } = this.deps;
    const nobody = (line: string) => ({ lines: [line], reached: false });
    if ('channel' in target) {
      const channel = await ports.channel(run.organizationId, target.channel);
      if (!channel) return nobody(`channel ${target.channel}: deleted`);
      // The first step comes with the alert: a channel that had the alert itself is not told twice.
      if (at.round === 0 && at.step === 0 && (await ports.heardAlert(channel, run.event, run.websiteId)))
        return { lines: [`${channel.name}: told by the alert itself`], reached: true };
      // Its own event id per step: the channel hears each step that names it, once, as a step.
      const told = dependentsToldTo(run.event, channel.scope.customerId);
      await ports.deliver(channel, {
        ...told,
        id: `${run.event.id}~esc-${stepKey(at)}`,
        data: { ...told.data, escalation: { policy: run.policy.name, step: label } },
      });
      // A disabled channel's delivery is skipped: it reaches nobody.
      return {
        lines: [`${channel.name}: ${channel.enabled ? 'sent' : 'disabled, not sent'}`],
        reached: channel.enabled,
      };
    }
    let userId: number;
    let via = '';
    if ('schedule' in target) {
      const onCall = await ports.onCall(run.organizationId, target.schedule, this.now());
      if (onCall === null) return nobody(`schedule ${target.schedule}: nobody on call`);
      userId = onCall;
      via = ` (on call, schedule ${target.schedule})`;
    } else userId = target.user;
    const person = await ports.person(run.organizationId, userId);
    if (!person) return nobody(`person ${userId}: no longer in the organization`);
    // Named twice in one step (on call, and by name): paged once, by the first target.
    if (paged.includes(person.id)) return { lines: [], reached: false };
    paged.push(person.id);
    const methods = (await ports.methods(run.organizationId, person.id)).filter((m) =>
      accepts(m, 'alert', this.now()),
    );
    if (methods.length === 0) return nobody(`${person.name}${via}: no contact method takes alerts now`);
    const told: string[] = [];
    let reached = false;
    for (const method of methods) {
      const key = `${run._id}:${stepKey(at)}:u${person.id}:m${method.id}`;
      if (!(await this.deps.runs.firstSend(key, this.now()))) {
        // Sent before this step was taken over (its sender died): it reached them then.
        reached = true;
        continue;
      }
      const token = await this.deps.links.issue(run.organizationId, run._id, person.id, this.now());
      const outcome = await this.deps.reach.reach(
        run.organizationId,
        method,
        pageMessage(run.event, method.type, ports.ackUrl(token), label),
      );
      told.push(`${person.name}${via} by ${method.type}: ${outcome.sent ? 'sent' : outcome.problem}`);
      reached ||= outcome.sent;
    }
    return { lines: told, reached };
  }

  /** Ends the incident's run; the people it paged hear of it where their methods want to. */
  private async stop(
    incident: string,
    state: 'acknowledged' | 'resolved',
    by: { type: string; id: number; name: string } | null,
  ): Promise<void> {
    const run = await this.deps.runs.stop(incident, state, this.now());
    if (!run) return;
    this.deps.logger.info({ incident, state }, 'escalation stopped');
    const kind: ContactEvent = state === 'resolved' ? 'recovery' : 'acknowledged';
    const message = closingMessage(run.event, kind, by?.name ?? null);
    for (const userId of run.paged) {
      if (by?.type === 'user' && by.id === userId) continue;
      for (const method of await this.deps.ports.methods(run.organizationId, userId)) {
        if (!accepts(method, kind, this.now())) continue;
        if (!(await this.deps.runs.firstSend(`${incident}:${state}:u${userId}:m${method.id}`, this.now())))
          continue;
        const outcome = await this.deps.reach.reach(run.organizationId, method, message);
        if (!outcome.sent)
          this.deps.logger.warn({ incident, userId, problem: outcome.problem }, 'closing page not sent');
      }
    }
  }

  /** Queues steps whose jobs were lost (Redis flushed) and finishes steps whose claimer died. */
  async sweep(): Promise<{ queued: number; resumed: number }> {
    const now = this.now();
    const { due, stalled } = await this.deps.runs.due(now, new Date(now.getTime() - STALLED_AFTER_MS), 200);
    for (const run of due)
      if (run.next) await this.deps.queue.schedule({ incidentId: run._id, ...run.next }, run.next.dueAt);
    let resumed = 0;
    for (const run of stalled) {
      if (!run.sending || !(await this.deps.runs.takeOver(run, now))) continue;
      await this.carryOut(run, run.sending);
      resumed += 1;
    }
    return { queued: due.length, resumed };
  }
}

const describe = (target: EscalationTarget) =>
  'channel' in target
    ? `channel ${target.channel}`
    : 'schedule' in target
      ? `schedule ${target.schedule}`
      : `person ${target.user}`;
