/**
 * Issue 39, class 6: escapes closed or stated. Descendants that leave the process group are still
 * killed at the timeout; the recursion guard cannot be switched on from the agent's environment;
 * what a same-user hook can read of its ancestors (/proc/PID/environ) is closed by a sandbox or
 * stated honestly in docs/security.md.
 *
 * Each `it.fails` states the guarantee as it should hold and fails on today's code (vitest counts
 * it as passing while the bug is there). When the fix lands it turns red: flip it to `it(...)`.
 * For /proc/PID/environ the issue allows "stated" instead of "closed": the opt-in bwrap sandbox
 * closes it where bwrap runs (those tests skip where it does not), and the docs state the default.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alive, DIALECTS, dispatchShell, GUARD_SH, sandbox, verdict, type Sandbox } from './helpers.js';

/** bwrap installed and able to make its namespaces here (the optional hook sandbox is tested where it exists). */
function bwrapWorks(): boolean {
  return spawnSync('bwrap', ['--unshare-all', '--ro-bind', '/', '/', 'true']).status === 0;
}

let sb: Sandbox;
const started: number[] = [];
beforeAll(() => {
  sb = sandbox();
});
afterAll(() => {
  // Only the processes these tests started, by the pids they wrote.
  for (const pid of started) if (alive(pid)) process.kill(pid, 'SIGKILL');
  sb.dir.cleanup();
});
const settingsWith = (name: string, hook: Record<string, unknown>) =>
  sb.dir.json(`${name}.json`, { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', ...hook }] }] } });

describe('a double-forked setsid grandchild does not survive the hook timeout', () => {
  it('dispatch --agent claude, hook timeout 1 s', async () => {
    const pidFile = sb.dir.path('grandchild.pid');
    // The grandchild leaves the hook's process group and session, and keeps the hook's pipes.
    const settings = settingsWith('setsid', {
      command: `(setsid sh -c 'echo $$ > ${pidFile}; exec sleep 30' &) ; sleep 30`,
      timeout: 1,
    });
    const r = await dispatchShell('claude', sb.dir.root, 'ls', { env: sb.env, args: ['--settings', settings], timeoutMs: 20_000 });
    expect(r.timedOut).toBe(false);
    expect(existsSync(pidFile)).toBe(true);
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    started.push(pid);
    expect(alive(pid)).toBe(false);
  });
});

describe('the recursion guard cannot be switched on from the agent’s environment', () => {
  // AGENT_HOOKS_DISPATCH is what dispatch sets for its own hooks; here the agent (or a poisoned
  // shell profile) has it, with any value. test/dialects/dispatch.test.ts's "recursion guard" test
  // asserts today's behaviour and must change with the fix.
  let settings = '';
  beforeAll(() => {
    const guard = sb.dir.write('guard.sh', GUARD_SH, 0o755);
    settings = settingsWith('guarded', { command: `sh ${guard}` });
  });
  it.concurrent('control: without the variable the guard denies', async () => {
    expect(verdict(await dispatchShell('claude', sb.dir.root, 'rm -rf build', { env: sb.env, args: ['--settings', settings] }))).toBe(
      'deny',
    );
  });
  it.concurrent.each(DIALECTS)('%s with AGENT_HOOKS_DISPATCH=0 in the agent’s environment', async (agent) => {
    const env = { ...sb.env, AGENT_HOOKS_DISPATCH: '0' };
    const r = await dispatchShell(agent, sb.dir.root, 'rm -rf build', { env, args: ['--settings', settings] });
    expect(verdict(r), r.stderr).toBe('deny');
  });
});

describe("a hook cannot read the agent's secrets from its parent's /proc/PID/environ", () => {
  const CANARY = 'sk-canary-4f1c9e0b';
  // Only the canary is looked for, and only a yes/no is written: nothing of any environment is copied.
  const probe = (found: string) =>
    `if grep -qz '${CANARY}' /proc/$PPID/environ 2>/dev/null; then echo yes > ${found}; else echo no > ${found}; fi`;
  const env = () => ({ ...sb.env, ANTHROPIC_API_KEY: CANARY });

  it.skipIf(!bwrapWorks())('with agentHooks.sandbox "bwrap" the hook cannot read it', async () => {
    const found = sb.dir.path('found-sandboxed');
    const settings = sb.dir.json('environ-sandboxed.json', {
      agentHooks: { sandbox: 'bwrap' },
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: probe(found) }] }] },
    });
    const r = await dispatchShell('claude', sb.dir.root, 'ls', { env: env(), args: ['--settings', settings] });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(found, 'utf8').trim()).toBe('no');
  });

  // Stated (docs/security.md): without the sandbox a same-user hook reads its ancestors' environment.
  it('without a sandbox the read succeeds, as docs/security.md states', async () => {
    const found = sb.dir.path('found');
    const r = await dispatchShell('claude', sb.dir.root, 'ls', {
      env: env(),
      args: ['--settings', settingsWith('environ', { command: probe(found) })],
    });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(found, 'utf8').trim()).toBe('yes');
    const doc = readFileSync(fileURLToPath(new URL('../../docs/security.md', import.meta.url)), 'utf8');
    expect(doc).toMatch(/\/proc\/[^\s`]*\/environ/);
    expect(doc).toMatch(/agentHooks\.sandbox/);
  });
});
