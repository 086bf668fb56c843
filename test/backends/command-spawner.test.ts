/**
 * The command backend's whole suite again, with every hook forked by the spawner helper
 * (AGENT_HOOKS_SPAWNER=1; test/backends/command.test.ts runs it without). The helper is made
 * ready first, so no test falls back to a direct spawn; one check proves the hooks' parent is
 * the helper.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { drainerCommand } from '../../src/backends/capture.js';
import { buildHookEnv } from '../../src/backends/env.js';
import { runCommand } from '../../src/backends/command.js';
import { resetSpawner, spawnerPid, spawnerReady } from '../../src/backends/spawner.js';

process.env.AGENT_HOOKS_SPAWNER = '1';

beforeAll(async () => {
  expect(await spawnerReady()).toBe(true);
  // The helper tries its drainer once, on its first flood, and that try runs as a `cat` too: done
  // here, so the tests that count the drainers of a flood see only theirs, in any order.
  if (drainerCommand() !== null) {
    const flood = await runCommand({
      command: 'head -c 3000000 /dev/zero',
      cwd: process.cwd(),
      env: buildHookEnv(),
      stdin: '',
      timeoutMs: 10_000,
      maxOutputBytes: 1000,
    });
    expect(flood).toMatchObject({ status: 'completed', stdoutTruncated: true });
  }
});
afterAll(() => {
  delete process.env.AGENT_HOOKS_SPAWNER;
  resetSpawner();
});

it('hooks are children of the spawner, not of this process', async () => {
  const helper = spawnerPid();
  expect(helper).toBeTypeOf('number');
  expect(helper).not.toBe(process.pid);
  const r = await runCommand({ command: 'echo $PPID', cwd: process.cwd(), env: buildHookEnv(), stdin: '', timeoutMs: 10_000 });
  expect(r.status).toBe('completed');
  expect(Number(r.stdout.trim())).toBe(helper);
  // The helper is a bare Node: no loader, no inspector, nothing of this process's NODE_OPTIONS.
  const cmdline = readFileSync(`/proc/${helper}/cmdline`, 'utf8').split('\0');
  expect(cmdline[1]).toBe('-e');
});

await import('./command.test.js');
