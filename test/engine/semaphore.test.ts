import { describe, expect, it } from 'vitest';
import { createSemaphore } from '../../src/engine/semaphore.js';

describe('semaphore', () => {
  it('tryAcquire takes a free slot at once and refuses when all are taken; a release hands the slot to a waiter first', async () => {
    const s = createSemaphore(2);
    const a = s.tryAcquire();
    const b = s.tryAcquire();
    expect(a).toBeTypeOf('function');
    expect(b).toBeTypeOf('function');
    expect(s.tryAcquire()).toBeUndefined();
    expect(s.active).toBe(2);
    let got = false;
    const waiter = s.acquire().then((release) => {
      got = true;
      return release;
    });
    expect(s.waiting).toBe(1);
    a!();
    a!(); // a second call of the same release does nothing
    const c = await waiter;
    expect(got).toBe(true);
    expect(s.active).toBe(2);
    expect(s.waiting).toBe(0);
    // Still full: the released slot went to the waiter, not back to tryAcquire.
    expect(s.tryAcquire()).toBeUndefined();
    b!();
    c();
    expect(s.active).toBe(0);
    expect(s.tryAcquire()).toBeTypeOf('function');
  });
});
