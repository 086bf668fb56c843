/**
 * Issue 39, class 6: escapes closed or stated. Descendants that leave the process group are still
 * killed at the timeout; the recursion guard cannot be switched on from the agent's environment;
 * what a same-user hook can read of its ancestors (/proc/PID/environ) is closed by a sandbox or
 * stated honestly in docs/security.md.
 *
 * Each `it.fails` states the guarantee as it should hold and fails on today's code (vitest counts
 * it as passing while the bug is there). When the fix lands it turns red: flip it to `it(...)`.
 * For /proc/PID/environ the issue allows "stated" instead of "closed": if the fix only documents it
 * (plus an optional sandbox not installed here), keep the docs test and make the read test depend
 * on the sandbox being present.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alive, DIALECTS, dispatchShell, GUARD_SH, sandbox, verdict, type Sandbox } from './helpers.js';

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
  // Stated, not closed (docs/security.md, "Issue 39, classes 5–7"): no hook sandbox is built yet,
  // so this read still succeeds; the test below checks the statement.
  it.fails('dispatch --agent claude: the hook greps /proc/$PPID/environ for the canary key', async () => {
    const found = sb.dir.path('found');
    // Only the canary is looked for, and only a yes/no is written: nothing of any environment is copied.
    const settings = settingsWith('environ', {
      command: `if grep -qz '${CANARY}' /proc/$PPID/environ 2>/dev/null; then echo yes > ${found}; else echo no > ${found}; fi`,
    });
    const env = { ...sb.env, ANTHROPIC_API_KEY: CANARY };
    await dispatchShell('claude', sb.dir.root, 'ls', { env, args: ['--settings', settings] });
    expect(readFileSync(found, 'utf8').trim()).toBe('no');
  });

  it('docs/security.md states what a same-user hook can read of its ancestors', () => {
    const doc = readFileSync(fileURLToPath(new URL('../../docs/security.md', import.meta.url)), 'utf8');
    expect(doc).toMatch(/\/proc\/[^\s`]*\/environ/);
    expect(doc).toMatch(/What a same-user hook can read of its ancestors\*\* — stated, not closed/);
  });
});
