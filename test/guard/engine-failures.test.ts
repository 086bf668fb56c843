/**
 * Issue 39, class 2: nothing the engine itself fails at lets a call through. A payload it cannot
 * fully give to a guard (over the stdin cap, a field of an unexpected type, unparsable) and a
 * guard it cannot start are the engine's failures: on an event that can block, the answer is a
 * deny in the agent's convention.
 *
 * Each `it.fails` states the guarantee as it should hold and fails on today's code (vitest counts
 * it as passing while the bug is there). When the fix lands it turns red: flip it to `it(...)`.
 * The plain `it` controls show the same set-up denies the plain forbidden call.
 */
import { mkdirSync, rmdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { createHookEngine } from '../../src/engine/engine.js';
import { startPolicyServer, type RunningPolicyServer } from '../../src/policy-server/server.js';
import { newToken } from '../../src/policy-server/tokens.js';
import type { DialectName } from '../../src/agents/types.js';
import { DIALECTS, dispatchShell, GUARD_SH, runBin, sandbox, verdict, type Sandbox } from './helpers.js';

/** A command over the 100 KiB stdin cap whose forbidden part is at the end. */
const LONG = `echo ${'A'.repeat(110 * 1024)} ; rm -rf build`;

let sb: Sandbox;
let settings = '';
let guard = '';
const config = () => ({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `sh ${guard}` }] }] } });
beforeAll(() => {
  sb = sandbox();
  guard = sb.dir.write('guard.sh', GUARD_SH, 0o755);
  // Named on the command line: trusted by whoever named it, no trust review needed.
  settings = sb.dir.json('settings.json', config());
  // The same guard as the user's own hook (never gated), for the tests without --settings.
  sb.dir.json('home/.claude/settings.json', config());
  mkdirSync(sb.dir.path('work'));
});
afterAll(() => sb.dir.cleanup());
const dispatch = (agent: DialectName, command: string, edit?: (p: Record<string, unknown>) => void, cwd = sb.dir.path('work')) =>
  dispatchShell(agent, cwd, command, { env: sb.env, args: ['--settings', settings], edit });

describe('control: the guard denies the short forbidden command', () => {
  it.concurrent.each(DIALECTS)('%s', async (agent) => {
    expect(verdict(await dispatch(agent, 'rm -rf build'))).toBe('deny');
  });
});

describe('a command over the 100 KiB payload cap is denied, never judged shortened', () => {
  it.concurrent.each(DIALECTS)('dispatch --agent %s', async (agent) => {
    const r = await dispatch(agent, LONG);
    expect(verdict(r), r.stderr.slice(0, 500)).toBe('deny');
  });

  it('the library (createHookEngine)', async () => {
    const loaded = await loadConfig({ cwd: sb.dir.root, discover: false, settingsFiles: [settings] });
    const engine = createHookEngine({ hooks: loaded.hooks, projectDir: sb.dir.root, cwd: sb.dir.root });
    try {
      const decision = await engine.run('PreToolUse', {
        session_id: 's',
        cwd: sb.dir.root,
        tool_name: 'Bash',
        tool_input: { command: LONG },
      });
      expect(decision.blocked).toBe(true);
    } finally {
      await engine.close();
    }
  });

  describe('the policy server', () => {
    let server: RunningPolicyServer | undefined;
    const alice = newToken('alice');
    beforeAll(async () => {
      sb.dir.json('ps/tokens.json', { clients: [alice.entry] });
      sb.dir.json('ps/team.json', config());
      server = await startPolicyServer({
        configFiles: [sb.dir.path('ps/team.json')],
        tokensFile: sb.dir.path('ps/tokens.json'),
        workDir: sb.dir.path('ps'),
        auditSinks: [],
        settingsEnv: {},
        onWarning: () => {},
        port: 0,
        host: '127.0.0.1',
      });
    });
    afterAll(async () => server?.close());
    const decide = async (command: string) => {
      const res = await fetch(`${server!.url}/v1/decide`, {
        method: 'POST',
        headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          session_id: 's',
          hook_event_name: 'PreToolUse',
          cwd: sb.dir.root,
          transcript_path: '',
          tool_name: 'Bash',
          tool_input: { command },
        }),
      });
      return { status: res.status, body: (await res.json()) as { decision?: { blocked?: boolean } } };
    };
    it('control: the short forbidden command is blocked', async () => {
      expect((await decide('rm -rf build')).body.decision?.blocked).toBe(true);
    });
    it('the long one is blocked too', async () => {
      const r = await decide(LONG);
      expect(r.status).toBe(200);
      expect(r.body.decision?.blocked).toBe(true);
    });
  });
});

describe('a payload field of an unexpected type is denied on PreToolUse, not exit 1 (which agents read as "proceed")', () => {
  it.concurrent.each(['claude', 'codex', 'qwen', 'kimi', 'droid'] as const)('%s: a numeric tool_use_id', async (agent) => {
    const r = await dispatch(agent, 'rm -rf build', (p) => {
      p.tool_use_id = 7;
    });
    expect(verdict(r), r.stderr).toBe('deny');
  });
  it.concurrent.each(['claude', 'droid'] as const)('%s: transcript_path null', async (agent) => {
    const r = await dispatch(agent, 'rm -rf build', (p) => {
      p.transcript_path = null;
    });
    expect(verdict(r), r.stderr).toBe('deny');
  });
  // Not a break: gemini's adapter accepts the field, so its guard runs and denies.
  it.concurrent('gemini: a numeric tool_use_id (holds today)', async () => {
    const r = await dispatch('gemini', 'rm -rf build', (p) => {
      p.tool_use_id = 7;
    });
    expect(verdict(r), r.stderr).toBe('deny');
  });
});

describe('an unparsable payload for an event that can block is denied', () => {
  // Copilot names the event on the command line (--event preToolUse), so dispatch knows it can block.
  it.concurrent('copilot --event preToolUse, payload cut short', async () => {
    const r = await runBin(['dispatch', '--agent', 'copilot', '--event', 'preToolUse', '--settings', settings], {
      env: sb.env,
      input: '{"sessionId":"s-1","cwd":"/tmp","toolName":"bash","toolArgs":"{\\"command\\":\\"rm -rf build',
    });
    expect(verdict(r), r.stderr).toBe('deny');
  });
});

describe('a guard the engine cannot start (its working directory was deleted) is a deny, not "proceed"', () => {
  // `mkdir t && cd t && rmdir ../t`; the guard is the user's own hook (~/.claude/settings.json).
  it.concurrent.each(DIALECTS)('dispatch --agent %s', async (agent) => {
    const gone = sb.dir.path(`gone-${agent}`);
    mkdirSync(gone);
    rmdirSync(gone);
    const r = await dispatchShell(agent, gone, 'rm -rf build', { env: sb.env });
    expect(verdict(r), r.stderr).toBe('deny');
  });

  it('the library (createHookEngine)', async () => {
    const gone = sb.dir.path('gone-lib');
    mkdirSync(gone);
    rmdirSync(gone);
    const loaded = await loadConfig({ cwd: sb.dir.root, discover: false, settingsFiles: [settings] });
    const engine = createHookEngine({ hooks: loaded.hooks, projectDir: sb.dir.root, cwd: sb.dir.root });
    try {
      const decision = await engine.run('PreToolUse', {
        session_id: 's',
        cwd: gone,
        tool_name: 'Bash',
        tool_input: { command: 'rm -rf build' },
      });
      expect(decision.blocked).toBe(true);
    } finally {
      await engine.close();
    }
  });

  it.concurrent('control: from a directory that exists, the same user guard denies', async () => {
    const r = await dispatchShell('claude', sb.dir.path('work'), 'rm -rf build', { env: sb.env });
    expect(verdict(r), r.stderr).toBe('deny');
  });
});

describe('a backend that throws is the engine’s failure: denied where the event can block, never "proceed"', () => {
  it('the library, with a backend that cannot make what it needs (a full disk, a path that is not a directory)', async () => {
    const hook = {
      id: 'h',
      event: 'PreToolUse' as const,
      handler: { type: 'command' as const, command: 'exit 0' },
      source: { kind: 'cli' as const, path: 'h' },
      dedupKey: '\0h',
    };
    const engine = createHookEngine({
      hooks: [hook],
      spawner: false,
      backends: {
        command: async () => {
          throw new Error('ENOSPC: no space left on device');
        },
      },
    });
    try {
      const d = await engine.run('PreToolUse', { session_id: 's', cwd: sb.dir.root, tool_name: 'Bash', tool_input: { command: 'ls' } });
      expect({ decision: d.decision, reason: d.reason }).toEqual({
        decision: 'deny',
        reason: 'hook h failed: backend failed: ENOSPC: no space left on device (failureBehavior: deny)',
      });
    } finally {
      await engine.close();
    }
  });
});
