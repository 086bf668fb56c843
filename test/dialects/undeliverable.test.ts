/**
 * What an agent's own code never delivers (src/agents/shared/undeliverable.ts): dispatch notes a
 * dropped context on a channel the agent does not parse as output, `check --agent` and
 * `doctor` warn about a hook the agent never runs. Real CLI, real hook processes.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { droid } from '../../src/agents/droid/facts.js';
import { GEMINI_UNDELIVERABLE } from '../../src/agents/gemini/facts.js';
import { undeliverableWarnings } from '../../src/agents/shared/undeliverable.js';
import { withUndeliverableNotes } from '../../src/agents/shared/wire.js';
import type { Decision } from '../../src/reduce/reduce.js';
import type { NormalizedHook } from '../../src/types.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';
import { runCli } from './cli.js';

let dir: TempDir;
beforeAll(() => {
  dir = tempDir('agent-hooks-undeliverable-');
});
afterAll(() => dir.cleanup());

function contextEngine(name: string): string {
  const answer = { hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'PRE-CTX-TOKEN' } };
  const script = dir.write(
    `${name}.mjs`,
    `process.stdin.resume(); process.stdin.on('end', () => process.stdout.write(${JSON.stringify(JSON.stringify(answer))}));`,
  );
  return dir.json(`${name}.json`, { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: `node ${JSON.stringify(script)}` }] }] } });
}

const base = { session_id: 's1', transcript_path: '/tmp/t.jsonl', cwd: '/tmp' };

describe('dispatch notes a PreToolUse context the agent drops', () => {
  const cases = [
    {
      agent: 'gemini',
      version: 'Gemini CLI 0.61.0',
      payload: {
        ...base,
        hook_event_name: 'BeforeTool',
        timestamp: '2026-01-01T00:00:00Z',
        tool_name: 'run_shell_command',
        tool_input: { command: 'echo hi' },
      },
    },
    {
      agent: 'qwen',
      version: 'Qwen Code 0.24.4',
      payload: {
        ...base,
        hook_event_name: 'PreToolUse',
        permission_mode: 'yolo',
        tool_name: 'run_shell_command',
        tool_input: { command: 'echo hi' },
        tool_use_id: 'c1',
      },
    },
    {
      agent: 'droid',
      version: 'Factory Droid 0.225.2',
      payload: {
        ...base,
        hook_event_name: 'PreToolUse',
        permission_mode: 'auto-high',
        tool_name: 'Execute',
        tool_input: { command: 'echo hi' },
      },
    },
  ];
  for (const c of cases) {
    test(`${c.agent}: the note names the agent version, stdout stays a valid non-verdict answer`, async () => {
      const r = await runCli(['dispatch', '--agent', c.agent, '--settings', contextEngine(`ctx-${c.agent}`)], JSON.stringify(c.payload));
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`not deliverable by the agent (${c.version})`);
      // The note is never the answer: stdout is JSON the agent reads (for Gemini/Qwen at least `{}`).
      const answer = JSON.parse(r.stdout.trim() || '{}');
      expect(answer.decision).toBeUndefined();
      expect(answer.hookSpecificOutput?.permissionDecision).toBeUndefined();
    });
  }

  test('no note without a context, and none on exit 2 (stderr is the reason there)', () => {
    const d: Decision = {
      event: 'PreToolUse',
      blocked: false,
      additionalContext: [],
      systemMessages: [],
      continue: true,
      eventOutput: {},
      hooks: [],
      warnings: [],
    };
    const o = { stdout: '', stderr: '', exitCode: 0 };
    expect(withUndeliverableNotes(GEMINI_UNDELIVERABLE, d, o)).toBe(o);
    const withCtx = { ...d, additionalContext: ['x'] };
    expect(withUndeliverableNotes(GEMINI_UNDELIVERABLE, withCtx, o).stderr).toContain('not deliverable');
    const deny = { stdout: '', stderr: 'reason', exitCode: 2 };
    expect(withUndeliverableNotes(GEMINI_UNDELIVERABLE, withCtx, deny)).toBe(deny);
  });
});

describe('config-time warnings for a hook the agent never runs', () => {
  const hook = (event: string): NormalizedHook =>
    ({
      id: `h-${event}`,
      event,
      handler: { type: 'command', command: 'true' },
      source: { kind: 'user', file: '/x/.factory/settings.json', path: `hooks.${event}[0].hooks[0]` },
      dedupKey: event,
    }) as unknown as NormalizedHook;

  test('a Droid UserPromptSubmit guard is reported loudly; other events and context entries are not', () => {
    const w = undeliverableWarnings(droid.title, droid.undeliverable!, [hook('UserPromptSubmit'), hook('PreToolUse'), hook('Stop')]);
    expect(w).toHaveLength(1);
    expect(w[0]!.message).toContain('THIS GUARD WILL NEVER RUN on Factory Droid');
    expect(w[0]!.path).toBe('hooks.UserPromptSubmit[0].hooks[0]');
  });

  test('check --agent droid warns; without --agent it does not', async () => {
    const file = dir.json('.factory/settings.json', { hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'true' }] }] } });
    const withAgent = await runCli(['check', '--agent', 'droid', '--json', file], '');
    expect(withAgent.code, withAgent.stderr).toBe(0);
    const messages = (JSON.parse(withAgent.stdout).diagnostics as Array<{ message: string }>).map((d) => d.message);
    expect(messages.some((m) => m.includes('THIS GUARD WILL NEVER RUN on Factory Droid'))).toBe(true);
    const plain = await runCli(['check', '--json', file], '');
    expect(plain.stdout).not.toContain('NEVER RUN');
  });

  test('check --agent auggie|letta: a prompt guard Auggie cannot stop, and an output replacement neither can apply', async () => {
    const file = dir.json('claude-format.json', {
      hooks: {
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'true' }] }],
        PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }],
      },
    });
    const messages = async (agent: string) => {
      const r = await runCli(['check', '--agent', agent, '--json', file], '');
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout).diagnostics as Array<{ message: string }>).map((d) => d.message).join('\n');
    };
    const auggie = await messages('auggie');
    expect(auggie).toContain('THIS GUARD CANNOT STOP IT on Auggie: UserPromptSubmit (Auggie 0.36.0)');
    expect(auggie).toContain('Auggie cannot apply every answer of this hook: PostToolUse (Auggie 0.36.0)');
    expect(auggie).toContain('a replacement ends the agent before the model reads the original');
    const letta = await messages('letta');
    expect(letta).toContain('Letta Code cannot apply every answer of this hook: PostToolUse (Letta Code 0.25.9)');
    expect(letta).toContain('THIS GUARD WILL NEVER RUN on Letta Code');
  });

  test('check --agent with an unknown agent is an error', async () => {
    const file = dir.json('plain.json', { hooks: {} });
    const r = await runCli(['check', '--agent', 'nope', file], '');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('unknown agent');
  });

  test('doctor warns on a Droid-format UserPromptSubmit hook', async () => {
    const file = dir.json('proj/.factory/settings.json', {
      hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'true' }] }] },
    });
    const r = await runCli(['doctor', '--settings', file, '--cwd', dir.path('proj'), '--json'], '');
    const report = JSON.parse(r.stdout) as { hooks: Array<{ event: string; findings: Array<{ message: string }> }> };
    const h = report.hooks.find((x) => x.event === 'UserPromptSubmit');
    expect(h, r.stdout).toBeDefined();
    expect(h!.findings.map((f) => f.message).join('\n')).toContain('THIS GUARD WILL NEVER RUN on Factory Droid');
  });
});
