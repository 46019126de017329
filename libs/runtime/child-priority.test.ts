import { spawn } from 'node:child_process';
import { once } from 'node:events';
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
});
