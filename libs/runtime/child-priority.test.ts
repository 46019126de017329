import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { describe, expect, it } from 'vitest';
import { descendantsOf, lowerPriorityOfNewChildren } from './child-priority.js';

describe('lowering the CPU priority of the processes a launch started', () => {
  it('lowers the new child and what it forked, not the children started before', async () => {
    const older = spawn('sleep', ['30']);
    await once(older, 'spawn');
    const before = descendantsOf(process.pid);
    expect(before.has(older.pid as number)).toBe(true);
    // A shell that forks a grandchild, as Chromium's browser forks its zygote.
    const launched = spawn('sh', ['-c', 'sleep 30 & wait']);
    await once(launched, 'spawn');
    let grandchild: number | undefined;
    await expect
      .poll(() => {
        grandchild = [...descendantsOf(launched.pid as number)][0];
        return grandchild;
      })
      .toBeDefined();
    try {
      expect(lowerPriorityOfNewChildren(before, 10)).toBeGreaterThanOrEqual(2);
      expect(getPriority(launched.pid as number)).toBe(10);
      expect(getPriority(grandchild as number)).toBe(10);
      expect(getPriority(older.pid as number)).toBe(getPriority());
    } finally {
      older.kill();
      launched.kill();
      if (grandchild) process.kill(grandchild);
    }
  });

  /** The niceness of `pid`'s autogroup, as /proc tells it ("/autogroup-44 nice 10"). */
  const groupNice = (pid: number | 'self') =>
    Number(readFileSync(`/proc/${pid}/autogroup`, 'utf8').trim().split(' nice ')[1]);

  it.runIf(existsSync('/proc/self/autogroup'))(
    'a child in a session of its own (as playwright starts Chromium): its autogroup is lowered too, never ours',
    async () => {
      const before = descendantsOf(process.pid);
      const ownNice = groupNice('self');
      const detached = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
      await once(detached, 'spawn');
      const pid = detached.pid as number;
      try {
        expect(readFileSync(`/proc/${pid}/autogroup`, 'utf8')).not.toBe(
          readFileSync('/proc/self/autogroup', 'utf8'),
        );
        expect(lowerPriorityOfNewChildren(before, 10)).toBeGreaterThanOrEqual(1);
        expect(getPriority(pid)).toBe(10);
        expect(groupNice(pid)).toBe(10);
        expect(groupNice('self')).toBe(ownNice);
      } finally {
        detached.kill();
      }
    },
  );
});
