import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { runCommand } from '../../src/backends/command.js';
import { buildHookEnv } from '../../src/backends/env.js';
import { ProcessTracker, prepareFixtures } from './helpers.js';

// The payload is written with stack traces off (a hook that exits first gives an EPIPE whose stack
// Node formats, scanning the bundle's source: docs/performance.md). The limit must come back.
const tracker = new ProcessTracker();
let work: string;
beforeAll(() => {
  prepareFixtures();
  work = mkdtempSync(join(tmpdir(), 'agent-hooks-stdin-'));
});
afterEach(async () => {
  expect(await tracker.cleanup()).toEqual([]);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('a hook that exits without reading its stdin completes, and the stack trace limit is restored', async () => {
  const before = Error.stackTraceLimit;
  Error.stackTraceLimit = 37;
  try {
    for (const size of [10, 100_000]) {
      const r = await runCommand({
        command: 'true',
        cwd: work,
        env: buildHookEnv(),
        stdin: 'x'.repeat(size),
        timeoutMs: 10_000,
        onSpawn: tracker.onSpawn,
      });
      expect(r).toMatchObject({ status: 'completed', exitCode: 0 });
      expect(Error.stackTraceLimit).toBe(37);
    }
    // Errors made afterwards still carry their frames.
    expect(new Error('after').stack?.split('\n').length).toBeGreaterThan(1);
  } finally {
    Error.stackTraceLimit = before;
  }
});
