import { Queue, type Worker } from 'bullmq';
import type { Logger } from '../logging/index.js';
import { queueName, quietQueueErrors, type Redis, startJobWorker } from '../redis/index.js';
import type { NoticeRepository } from './notice.repository.js';

export const NOTICES_QUEUE = 'status-notices';

interface NoticeJobData {
  noticeId: string;
}

/**
 * A mailing handed over (its notifier stopping) or failed (SMTP away) is taken again after this;
 * a notifier that died holds it until its lock lapses (30 s).
 */
const RETRY_DELAY_MS = 2_000;

const jobIdOf = (noticeId: string) => `notice-${noticeId.replaceAll(':', '-')}`;

/** Producer: notices to mail, by id (the job re-reads MongoDB); one job per notice. */
export class NoticeQueue {
  private readonly queue: Queue<NoticeJobData>;

  constructor(connection: Redis, prefix: string) {
    this.queue = quietQueueErrors(
      new Queue<NoticeJobData>(queueName(connection, NOTICES_QUEUE), { connection, prefix }),
    );
  }

  async announce(noticeId: string): Promise<void> {
    const jobId = jobIdOf(noticeId);
    // A job failed for good is left by BullMQ under its id, and would swallow the announcement.
    const existing = await this.queue.getJob(jobId);
    if (existing && (await existing.isFailed())) await existing.remove();
    await this.queue.add(
      'mail',
      { noticeId },
      {
        jobId,
        attempts: 1000,
        backoff: { type: 'fixed', delay: RETRY_DELAY_MS },
        removeOnComplete: true,
        removeOnFail: { count: 1000 },
      },
    );
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}

/** The notifier's consumer: one mailing at a time per notifier (each mails many at once). */
export function startNoticeWorker(options: {
  connection: Redis;
  prefix: string;
  logger: Logger;
  mail(noticeId: string): Promise<unknown>;
}): Worker {
  return startJobWorker<NoticeJobData>({
    queue: NOTICES_QUEUE,
    connection: options.connection,
    prefix: options.prefix,
    logger: options.logger,
    what: 'subscriber notice',
    concurrency: 1,
    // A dead notifier's mailing is taken over within ~10 s (its lock lapses, checked every 5 s), and
    // however often its notifiers die: each take-over goes on where the last stopped.
    lockDurationMs: 10_000,
    maxStalledCount: 1000,
    process: (job) => options.mail(job.data.noticeId),
  });
}

/** Announces again what was stored but not mailed to the end (their jobs lost with Redis's data); how many. */
export async function announceUnfinished(
  notices: Pick<NoticeRepository, 'unfinished'>,
  queue: Pick<NoticeQueue, 'announce'>,
): Promise<number> {
  const unfinished = await notices.unfinished();
  for (const notice of unfinished) await queue.announce(notice._id);
  return unfinished.length;
}
