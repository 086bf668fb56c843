/**
 * Letta Code (src/agents/letta/): its payload decoded, the answers Letta Code 0.25.9 reads (exit 2
 * and stderr for every stop: it never parses a PreToolUse JSON answer), its settings read and
 * written (ms timeouts, hooks.disabled), and LETTA_WORKING_DIR as the project.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { letta } from '../../src/agents/letta/facts.js';
import { parseLetta, serializeLetta } from '../../src/agents/letta/reader.js';
import { lettaWire } from '../../src/agents/letta/wire.js';
import type { DispatchInput } from '../../src/agents/types.js';
import type { Decision } from '../../src/reduce/reduce.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';
import { runCli } from './cli.js';

const decision = (d: Partial<Decision> & Pick<Decision, 'event'>): Decision => ({
  blocked: false,
  additionalContext: [],
  systemMessages: [],
  continue: true,
  eventOutput: {},
  hooks: [],
  warnings: [],
  ...d,
});

function decoded(raw: Record<string, unknown>): DispatchInput {
  const r = lettaWire.decodePayload(raw);
  if ('skip' in r) throw new Error(r.skip);
  return r;
}

describe('letta payloads', () => {
  test('PostToolUse: event_type, working_directory, tool_call_id, tool_result become canonical', () => {
    const d = decoded({
      event_type: 'PostToolUse',
      working_directory: '/w',
      tool_name: 'ShellCommand',
      tool_input: { command: 'ls' },
      tool_call_id: 'call_1',
      tool_result: { status: 'success', output: 'a\nb' },
      agent_id: 'agent-1',
    });
    expect(d.event).toBe('PostToolUse');
    expect(d.payload).toMatchObject({
      hook_event_name: 'PostToolUse',
      cwd: '/w',
      session_id: 'agent-1',
      tool_name: 'Bash',
      tool_use_id: 'call_1',
      tool_response: 'a\nb',
    });
  });

  test('an unknown event is skipped, not guessed', () => {
    expect(lettaWire.decodePayload({ event_type: 'PromptSubmit' })).toMatchObject({ skip: expect.stringContaining('no equivalent') });
  });
});

describe('letta answers', () => {
  const pre = decoded({ event_type: 'PreToolUse', working_directory: '/w', tool_name: 'Bash', tool_input: { command: 'rm -rf x' } });

  test('a JSON-convention deny becomes exit 2 with the reason on stderr', () => {
    const o = lettaWire.encodeDecision(decision({ event: 'PreToolUse', blocked: true, decision: 'deny', reason: 'no rm' }), pre);
    expect(o).toEqual({ stdout: '', stderr: 'no rm\n', exitCode: 2 });
  });

  test('a rewrite and an ask fail closed with the reason', () => {
    const rw = lettaWire.encodeDecision(decision({ event: 'PreToolUse', decision: 'allow', updatedInput: { command: 'ls' } }), pre);
    expect(rw.exitCode).toBe(2);
    expect(rw.stderr).toContain('Letta Code cannot apply');
    const ask = lettaWire.encodeDecision(decision({ event: 'PreToolUse', decision: 'ask', reason: 'sure?' }), pre);
    expect(ask).toMatchObject({ exitCode: 2, stderr: expect.stringContaining('sure?') });
  });

  test('a PermissionRequest nobody allowed never exits 0 (exit 0 approves in Letta Code)', () => {
    const input = decoded({ event_type: 'PermissionRequest', working_directory: '/w', tool_name: 'Bash', tool_input: {} });
    expect(lettaWire.encodeDecision(decision({ event: 'PermissionRequest' }), input).exitCode).toBe(1);
    expect(lettaWire.noop('PermissionRequest').exitCode).toBe(1);
    expect(lettaWire.encodeDecision(decision({ event: 'PermissionRequest', decision: 'allow' }), input).exitCode).toBe(0);
  });

  test('a replaced output ends the agent (Letta Code only appends to it); exit 2 with the replacement is the fallback', () => {
    const post = decoded({
      event_type: 'PostToolUse',
      working_directory: '/w',
      tool_name: 'Bash',
      tool_input: { command: 'x' },
      tool_result: { status: 'success', output: 'S' },
    });
    const o = lettaWire.encodeDecision(decision({ event: 'PostToolUse', updatedOutput: 'R' }), post);
    expect(o.endAgent?.reason).toContain('a hook replaced the output of Bash, which Letta Code cannot apply or withhold');
    expect(o).toMatchObject({ exitCode: 2, stderr: expect.stringContaining('use this output instead: R') });
    expect(lettaWire.encodeDecision(decision({ event: 'PostToolUse', blocked: true, reason: 'b' }), post).endAgent).toBeUndefined();
  });

  test('PostToolUse context is JSON (read there), UserPromptSubmit and SessionStart context plain stdout', () => {
    const post = decoded({
      event_type: 'PostToolUse',
      working_directory: '/w',
      tool_name: 'Bash',
      tool_input: {},
      tool_result: { output: 'x' },
    });
    expect(JSON.parse(lettaWire.encodeDecision(decision({ event: 'PostToolUse', additionalContext: ['C'] }), post).stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'C' },
    });
    const start = decoded({ event_type: 'SessionStart', working_directory: '/w', is_new_session: true });
    expect(lettaWire.encodeDecision(decision({ event: 'SessionStart', additionalContext: ['C'] }), start).stdout).toBe('C\n');
  });
});

describe('letta settings', () => {
  const file = '/p/.letta/settings.json';
  test('timeouts are milliseconds both ways; the default is 60 s', async () => {
    const doc = {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'command', command: 'x', timeout: 5000 },
              { type: 'command', command: 'y' },
            ],
          },
        ],
      },
    };
    const r = await parseLetta(doc, { file, kind: 'project' });
    expect(r.diagnostics.filter((d) => d.level === 'error')).toEqual([]);
    expect(r.hooks.map((h) => h.handler.timeout)).toEqual([5, 60]);
    expect(r.hooks[0]).toMatchObject({ dialect: 'letta', matcherMode: 'regex-anchored' });
    const back = JSON.parse((await serializeLetta(r.hooks)).text);
    expect(back.hooks.PreToolUse[0].hooks).toEqual([
      { type: 'command', command: 'x', timeout: 5000 },
      { type: 'command', command: 'y' },
    ]);
  });

  test('hooks.disabled is a setting, not an event; true loads nothing and says so', async () => {
    const doc = { hooks: { disabled: true, Stop: [{ hooks: [{ type: 'command', command: 'x' }] }] } };
    const r = await parseLetta(doc, { file, kind: 'project' });
    expect(r.hooks).toEqual([]);
    expect(r.diagnostics.map((d) => d.path)).toContain('hooks.disabled');
    expect(letta.configuredEvents(doc)).toEqual(['Stop']);
  });
});

describe('dispatch --agent letta', () => {
  let dir: TempDir;
  beforeAll(() => {
    dir = tempDir('agent-hooks-letta-');
  });
  afterAll(() => dir.cleanup());

  test('the project is LETTA_WORKING_DIR, not the payload working_directory after a cd elsewhere', async () => {
    const project = dir.path('project');
    dir.json('project/.claude/settings.json', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: "echo 'project guard' >&2; exit 2" }] }] },
    });
    dir.json('elsewhere/.keep', {});
    const env = {
      PATH: process.env.PATH,
      HOME: dir.path('home'),
      LETTA_WORKING_DIR: project,
      AGENT_HOOKS_TRUST_STORE: dir.path('trust.json'),
    };
    const trust = await runCli(['trust', '--cwd', project], '', { env });
    expect(trust.code, trust.stderr).toBe(0);
    const payload = {
      event_type: 'PreToolUse',
      working_directory: dir.path('elsewhere'),
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
    };
    const r = await runCli(['dispatch', '--agent', 'letta'], JSON.stringify(payload), { env });
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 2, stderr: 'project guard\n' });
  });
});
