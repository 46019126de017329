import { describe, expect, it } from 'vitest';
import { heartbeatAt, pingVerdict } from './heartbeat.verdict.js';

const at = (iso: string) => new Date(iso);

describe('heartbeat verdicts', () => {
  const heartbeat = {
    schedule: { periodSeconds: 60 },
    graceSeconds: 30,
    maxRunSeconds: null,
    createdAt: at('2026-11-25T10:00:00Z'),
    lastSuccessAt: null,
    lastStartAt: null,
    quietSince: null,
  };

  it('waits until the next expected ping plus grace, then says what was missed', () => {
    expect(heartbeatAt(heartbeat, at('2026-11-25T10:01:29Z'))).toEqual({
      deadline: at('2026-11-25T10:01:30Z'),
      verdict: null,
    });
    const late = heartbeatAt(heartbeat, at('2026-11-25T10:01:30Z'));
    expect(late.verdict).toMatchObject({ status: 'down', code: 'HEARTBEAT_MISSED' });
    expect(late.verdict?.cause).toBe(
      'no ping yet: one was expected by 2026-11-25T10:01:00Z (grace 30 s, counted from 2026-11-25T10:00:00Z)',
    );
  });

  it('counts a resumed heartbeat from its pause, not from a success long before', () => {
    const resumed = {
      ...heartbeat,
      lastSuccessAt: at('2026-11-01T00:00:00Z'),
      quietSince: at('2026-11-25T10:00:00Z'),
    };
    expect(heartbeatAt(resumed, at('2026-11-25T10:01:00Z')).verdict).toBeNull();
  });

  it('a run started past maxRunSeconds is late before the period is', () => {
    const running = { ...heartbeat, maxRunSeconds: 10, lastStartAt: at('2026-11-25T10:00:05Z') };
    const verdict = heartbeatAt(running, at('2026-11-25T10:00:15Z')).verdict;
    expect(verdict).toMatchObject({ code: 'HEARTBEAT_OVERRAN' });
    expect(verdict?.cause).toBe('a run started at 2026-11-25T10:00:05Z has not finished within 10 s');
  });

  it('a ping: success up, failure down with its exit code and the log’s first line', () => {
    expect(pingVerdict({ kind: 'success', exitCode: null, body: '' }).status).toBe('up');
    expect(
      pingVerdict({ kind: 'failure', exitCode: 2, body: '\n  rsync: connection refused\nmore' }).cause,
    ).toBe('the job exited with code 2: rsync: connection refused');
    expect(pingVerdict({ kind: 'failure', exitCode: null, body: '' }).cause).toBe(
      'the job reported a failure',
    );
  });
});
