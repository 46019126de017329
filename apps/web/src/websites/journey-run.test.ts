import { describe, expect, it } from 'vitest';
import { filesState } from './journey-run.js';

describe('a run’s files, as its page offers them', () => {
  it('offers them while they are kept, and says why not once they are gone or were never stored', () => {
    expect(filesState(undefined)).toEqual({ readable: true, gone: null });
    expect(filesState(new Date(Date.now() + 86_400_000).toISOString())).toEqual({
      readable: true,
      gone: null,
    });
    expect(filesState(null)).toEqual({
      readable: false,
      gone: 'Its screenshots and trace could not be stored.',
    });
    const past = new Date(Date.now() - 60_000).toISOString();
    expect(filesState(past)).toEqual({
      readable: false,
      gone: `Its screenshots and trace were kept until ${new Date(past).toLocaleString()}.`,
    });
  });
});
