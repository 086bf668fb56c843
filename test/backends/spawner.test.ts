/**
 * The spawner helper's lifecycle: restarted after it dies, direct spawn when it cannot start,
 * hooks in flight when it dies end (and their trees go), it dies with its host and never
 * keeps the host alive. Real processes throughout; the helper is the one the engine uses.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { buildHookEnv } from '../../src/backends/env.js';
import { runCommand } from '../../src/backends/command.js';
import type { CommandSpec } from '../../src/backends/command-target.js';
import { resetSpawner, spawnerPid, spawnerReady } from '../../src/backends/spawner.js';
import { drainerCommand } from '../../src/backends/capture.js';
import { isPidLive, liveGroupMembers, waitUntil, watchChildren } from './helpers.js';

const SPAWNER_JS = fileURLToPath(new URL('../../dist/backends/spawner.js', import.meta.url));

beforeAll(() => {
  if (!existsSync(SPAWNER_JS)) throw new Error('dist/backends/spawner.js is missing: run `npm run build` first (npm test does)');
});
afterEach(() => resetSpawner());

const spec = (command: string, extra: Partial<CommandSpec> = {}): CommandSpec => ({
  command,
  cwd: process.cwd(),
  env: buildHookEnv(),
  stdin: '',
  timeoutMs: 10_000,
  spawner: true,
  ...extra,
});

// No drainer where setpriv or cat is missing (macOS, util-linux before 2.33): the helper reads on.
it.skipIf(drainerCommand() === null)(
  'past the cap, the helper hands the rest of a flood to its own cat: the host gets the cap, the run ends with the output',
  async () => {
    expect(await spawnerReady()).toBe(true);
    const helper = spawnerPid()!;
    const flood = spec('head -c 20000000 /dev/zero; sleep 0.3; echo $PPID >&2', { maxOutputBytes: 1000 });
    // The helper tries its drainer once, on its first flood, and that try runs as a cat too: done before watching.
    await runCommand(flood);
    const cats = watchChildren(() => helper, 'cat');
    try {
      const r = await runCommand(flood);
      expect(r).toMatchObject({ status: 'completed', exitCode: 0, stdoutTruncated: true, stderrTruncated: false });
      expect(r.stdout).toHaveLength(1000);
      expect(Number(r.stderr.trim())).toBe(helper);
    } finally {
      cats.stop();
    }
    expect(cats.seen()).toHaveLength(1);
    for (const pid of cats.seen()) expect(isPidLive(pid)).toBe(false);
  },
);

it("ignores the signals sent to its host's group (Ctrl-C, SIGTERM, SIGHUP), which are the host's: hooks in flight go on", async () => {
  expect(await spawnerReady()).toBe(true);
  const helper = spawnerPid()!;
  const pending = runCommand(spec('sleep 0.3; echo ok'));
  await new Promise((r) => setTimeout(r, 100));
  for (const signal of ['SIGINT', 'SIGQUIT', 'SIGTERM', 'SIGHUP'] as const) process.kill(helper, signal);
  expect(await pending).toMatchObject({ status: 'completed', exitCode: 0, stdout: 'ok\n' });
  expect(spawnerPid()).toBe(helper);
  expect(isPidLive(helper)).toBe(true);
});

it('is restarted after it dies; the hook in between forks directly', async () => {
  expect(await spawnerReady()).toBe(true);
  const first = spawnerPid()!;
  expect(Number((await runCommand(spec('echo $PPID'))).stdout.trim())).toBe(first);
  process.kill(first, 'SIGKILL');
  expect(await waitUntil(() => spawnerPid() === undefined, 5000)).toBe(true);
  // Not ready yet: this one is forked by us, and starts a new helper.
  expect(Number((await runCommand(spec('echo $PPID'))).stdout.trim())).toBe(process.pid);
  expect(await spawnerReady()).toBe(true);
  const second = spawnerPid()!;
  expect(second).not.toBe(first);
  expect(Number((await runCommand(spec('echo $PPID'))).stdout.trim())).toBe(second);
});

it('a helper that cannot start means direct spawn, with the same results', async () => {
  resetSpawner({ execPath: '/nonexistent/agent-hooks-node', args: [] });
  expect(await spawnerReady(2000)).toBe(false);
  const r = await runCommand(spec('echo $PPID; echo err >&2; exit 3', { stdin: 'x' }));
  expect(r).toMatchObject({ status: 'completed', exitCode: 3, stderr: 'err\n' });
  expect(Number(r.stdout.trim())).toBe(process.pid);
});

it('a hook in flight when the helper dies ends at once, and its process group is killed', async () => {
  expect(await spawnerReady()).toBe(true);
  let group = 0;
  const pending = runCommand(spec('sleep 30', { onSpawn: (pid) => (group = pid) }));
  expect(await waitUntil(() => group !== 0, 5000)).toBe(true);
  const t0 = Date.now();
  process.kill(spawnerPid()!, 'SIGKILL');
  const r = await pending;
  expect(Date.now() - t0).toBeLessThan(5000);
  expect(r.exitCode).toBeNull();
  expect(r.signal).toBe('SIGKILL');
  expect(await waitUntil(() => liveGroupMembers(group).length === 0, 2000)).toBe(true);
});

/** A host process that runs one hook through the helper and prints the helper's pid. */
function host(after: string): ReturnType<typeof spawn> {
  const src = `
import { runCommand } from ${JSON.stringify(pathToFileURL(fileURLToPath(new URL('../../dist/backends/command.js', import.meta.url))).href)};
import { spawnerReady, spawnerPid } from ${JSON.stringify(pathToFileURL(SPAWNER_JS).href)};
if (!(await spawnerReady())) process.exit(9);
const r = await runCommand({ command: 'echo $PPID', cwd: process.cwd(), env: { PATH: process.env.PATH }, stdin: '', timeoutMs: 10000, spawner: true });
process.stdout.write(spawnerPid() + ' ' + r.stdout);
${after}`;
  return spawn(process.execPath, ['--input-type=module', '-e', src], { stdio: ['ignore', 'pipe', 'inherit'] });
}

function firstLine(child: ReturnType<typeof spawn>): Promise<string> {
  return new Promise((resolve) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.trim());
    });
    child.on('exit', () => resolve(out.trim()));
  });
}

it('dies with its host', async () => {
  const h = host('setInterval(() => {}, 1000);');
  const [helper, ppid] = (await firstLine(h)).split(' ').map(Number);
  expect(ppid).toBe(helper);
  expect(isPidLive(helper!)).toBe(true);
  h.kill('SIGKILL');
  expect(await waitUntil(() => !isPidLive(helper!), 5000)).toBe(true);
});

it('never keeps its host alive: a host with nothing left to do exits', async () => {
  const h = host('');
  const exited = new Promise<number | null>((resolve) => h.on('exit', (code) => resolve(code)));
  const [helper, ppid] = (await firstLine(h)).split(' ').map(Number);
  expect(ppid).toBe(helper);
  const timer = setTimeout(() => h.kill('SIGKILL'), 10_000);
  expect(await exited).toBe(0);
  clearTimeout(timer);
  expect(await waitUntil(() => !isPidLive(helper!), 5000)).toBe(true);
});
