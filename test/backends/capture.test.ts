/**
 * The output capture's arithmetic, and how the drainer (src/backends/capture.ts) is tried before
 * its first use: a drainer that does not end with status 0 on an empty input is never used, and
 * one that hangs is killed at the try's deadline although it ignores SIGTERM, as drainers do.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Capture, drainerCommand, useDrainer } from '../../src/backends/capture.js';

afterEach(() => useDrainer(undefined));

describe('Capture', () => {
  it.each([
    [0, [3], '', 3],
    [4, [2, 2], 'aaaa', 0],
    [4, [3, 3], 'aaaa', 2],
    [4, [5, 1], 'aaaa', 2],
  ])('cap %i, chunks %j: keeps %j, drops %i', (cap, sizes, kept, dropped) => {
    const c = new Capture(cap);
    for (const n of sizes) c.push(Buffer.alloc(n, 'a'));
    expect(c.text()).toBe(kept);
    expect(c.dropped).toBe(dropped);
    expect(c.truncated).toBe(dropped > 0);
  });
});

describe('the drainer is tried once before its first use', () => {
  it('one that fails on an empty input is not used', () => {
    useDrainer(['/bin/sh', '-c', 'exit 3'], { untried: true });
    expect(drainerCommand()).toBeNull();
  });

  it('one that hangs ignoring SIGTERM is killed at the deadline and not used', () => {
    useDrainer(['/bin/sh', '-c', 'trap "" TERM; exec sleep 30'], { untried: true });
    const t0 = performance.now();
    expect(drainerCommand()).toBeNull();
    // Loose bound: only proves the try did not wait for the 30 s sleep.
    expect(performance.now() - t0).toBeLessThan(10_000);
  });

  it('one that reads its input to the end and exits 0 is used', () => {
    const argv = ['/bin/sh', '-c', 'exec cat'];
    useDrainer(argv, { untried: true });
    expect(drainerCommand()).toEqual(argv);
  });
});
