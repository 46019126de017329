import { describe, expect, it } from 'vitest';
import { RoundRobinQueue } from './round-robin.js';

/** Pushes `[key, item]` in order, then shifts every item. */
function served(pushed: ReadonlyArray<readonly [string, string]>): string[] {
  const queue = new RoundRobinQueue<string, string>();
  for (const [key, item] of pushed) queue.push(key, item);
  const order: string[] = [];
  for (let item = queue.shift(); item !== undefined; item = queue.shift()) order.push(item);
  return order;
}

const many = (key: string, count: number) =>
  Array.from({ length: count }, (_, i) => [key, `${key}${i + 1}`] as const);

describe('RoundRobinQueue', () => {
  it.each([
    { case: 'one key: its own order', pushed: many('A', 3), order: ['A1', 'A2', 'A3'] },
    {
      case: 'a key that filled the queue first holds a later one back by one of its items',
      pushed: [...many('A', 5), ['B', 'B1'] as const],
      order: ['A1', 'B1', 'A2', 'A3', 'A4', 'A5'],
    },
    {
      case: 'three keys take turns, each in its order',
      pushed: [...many('A', 3), ...many('B', 2), ['C', 'C1'] as const],
      order: ['A1', 'B1', 'C1', 'A2', 'B2', 'A3'],
    },
    {
      case: 'a key whose items ran out joins at the back when it has another',
      pushed: [['A', 'A1'] as const, ['B', 'B1'] as const, ['A', 'A2'] as const],
      order: ['A1', 'B1', 'A2'],
    },
  ])('$case', ({ pushed, order }) => {
    expect(served(pushed)).toEqual(order);
  });

  it('a key pushed while another is being served waits behind one item of it at most', () => {
    const queue = new RoundRobinQueue<string, string>();
    for (const [key, item] of many('A', 20)) queue.push(key, item);
    expect(queue.shift()).toBe('A1');
    expect(queue.shift()).toBe('A2');
    queue.push('B', 'B1');
    expect([queue.shift(), queue.shift()]).toEqual(['A3', 'B1']);
    expect(queue.size).toBe(17);
    expect(queue.sizeOf('B')).toBe(0);
  });

  it('passes over a key that may not take one now, which keeps its place for when it may', () => {
    const queue = new RoundRobinQueue<string, string>();
    for (const [key, item] of [...many('A', 3), ...many('B', 2)]) queue.push(key, item);
    const notA = (key: string) => key !== 'A';
    expect([queue.shift(notA), queue.shift(notA), queue.shift(notA)]).toEqual(['B1', 'B2', undefined]);
    expect(queue.size).toBe(3);
    queue.push('B', 'B3');
    expect([queue.shift(), queue.shift(), queue.shift()]).toEqual(['A1', 'B3', 'A2']);
  });
});
