/**
 * Regression tests for dialect mismatches found against the agents' own code (issue 16): each
 * case pins what the agent really does, at unit level (adapters called directly) or through the
 * built CLI with real hook processes. No agent is needed.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { codex } from '../../src/agents/codex/facts.js';
import { copilot } from '../../src/agents/copilot/facts.js';
import { qwenSeconds } from '../../src/agents/gemini/reader.js';
import { gemini } from '../../src/agents/gemini/facts.js';
import { kimi } from '../../src/agents/kimi/facts.js';
import { qwen } from '../../src/agents/qwen/facts.js';
import type { DispatchInput } from '../../src/agents/types.js';
import { codexWire } from '../../src/agents/codex/wire.js';
import { copilotWire } from '../../src/agents/copilot/wire.js';
import { cursorWire } from '../../src/agents/cursor/wire.js';
import { geminiWire } from '../../src/agents/gemini/wire.js';
import { qwenWire } from '../../src/agents/qwen/wire.js';
import { emptyDecision } from '../../src/engine/engine.js';
import { inputSchema, type EventName } from '../../src/events/catalog.js';
import { loadConfig } from '../../src/config/load.js';
import type { Decision } from '../../src/reduce/reduce.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';
import { runCli } from './cli.js';

const ROOT = resolve(__dirname, '../..');
let dir: TempDir;
beforeAll(() => {
  dir = tempDir('agent-hooks-findings-');
});
afterAll(() => dir.cleanup());

function decision(event: EventName, over: Partial<Decision>): Decision {
  return { ...emptyDecision(event), ...over };
}
function input(event: EventName, nativeEvent: string, payload: Record<string, unknown> = {}): DispatchInput {
  return { event, nativeEvent, payload: { hook_event_name: event, ...payload }, raw: {} };
}
// biome-ignore lint/suspicious/noExplicitAny: the tests read nested fields of arbitrary JSON output
const json = (s: string) => JSON.parse(s) as Record<string, any>;

/** A Claude-format settings file whose hooks print `out` (JSON) for the given events. */
function settings(name: string, events: Record<string, { matcher?: string; out: unknown }>): string {
  const hooks: Record<string, unknown> = {};
  for (const [event, { matcher, out }] of Object.entries(events)) {
    const script = dir.write(
      `${name}-${event}.mjs`,
      `process.stdin.resume();process.stdin.on('end',()=>process.stdout.write(${JSON.stringify(JSON.stringify(out))}));`,
    );
    hooks[event] = [{ ...(matcher ? { matcher } : {}), hooks: [{ type: 'command', command: `node ${JSON.stringify(script)}` }] }];
  }
  return dir.json(`${name}.json`, { hooks });
}

describe('Qwen Code', () => {
  test('a PreToolUse rewrite fails closed: deny with the rewrite in the reason, and a note', () => {
    const o = qwenWire.encodeDecision(
      decision('PreToolUse', { decision: 'allow', updatedInput: { command: 'ls -la' } }),
      input('PreToolUse', 'PreToolUse', { tool_name: 'Bash' }),
    );
    const hso = json(o.stdout).hookSpecificOutput;
    expect(hso.permissionDecision).toBe('deny');
    expect(hso.permissionDecisionReason).toMatch(/Qwen Code cannot apply.*"ls -la"/);
    expect(hso.updatedInput).toBeUndefined();
    expect(o.stderr).toMatch(/ignores updatedInput/);
  });

  test('an output replacement withholds the output (decision: block) with the replacement in the reason', () => {
    const o = qwenWire.encodeDecision(
      decision('PostToolUse', { updatedOutput: 'API_KEY=[redacted]' }),
      input('PostToolUse', 'PostToolUse', { tool_name: 'Bash' }),
    );
    const out = json(o.stdout);
    expect(out.decision).toBe('block');
    expect(out.reason).toMatch(/withheld.*API_KEY=\[redacted\]/);
    expect(out.hookSpecificOutput?.updatedToolOutput).toBeUndefined();
    expect(o.stderr).toMatch(/cannot replace tool output/);
  });

  test('Stop continue:false is left out (Qwen reads it as "keep going"); a block still keeps it going', () => {
    const stop = qwenWire.encodeDecision(
      decision('Stop', { continue: false, stopReason: 'done', blocked: true, decision: 'block', reason: 'x' }),
      input('Stop', 'Stop'),
    );
    expect(stop.stdout).toBe('');
    expect(stop.stderr).toMatch(/continue:false.*keep going/);
    const keepGoing = qwenWire.encodeDecision(
      decision('Stop', { blocked: true, decision: 'block', reason: 'tests fail' }),
      input('Stop', 'Stop'),
    );
    expect(json(keepGoing.stdout)).toEqual({ decision: 'block', reason: 'tests fail' });
  });

  test('timeouts are seconds; 1000 and more are legacy milliseconds', async () => {
    expect([qwenSeconds(30), qwenSeconds(999), qwenSeconds(1000), qwenSeconds(30000)]).toEqual([30, 999, 1, 30]);
    const file = dir.json('.qwen/settings.json', {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'command', command: 'true', timeout: 30 },
              { type: 'command', command: 'false', timeout: 45000 },
            ],
          },
        ],
      },
    });
    const c = await loadConfig({ cwd: dir.root, settingsFiles: [file], dialect: 'qwen', discover: false });
    expect(
      c.hooks.map((h) => h.handler.timeout),
      JSON.stringify(c.diagnostics),
    ).toEqual([30, 45]);
  });

  // Qwen Code 0.24.4 ran `*`, ` run_shell_command` and `run_shell_command ` (test/agents/dialect-diff).
  test('matchers are trimmed regexes on every event, `*` for all, and Bash/Shell are aliases of run_shell_command', async () => {
    expect(['Notification', 'PreCompact', 'SessionStart'].map((e) => qwen.matcherMode(e as EventName))).toEqual([
      'regex-or-exact',
      'regex-or-exact',
      'regex-or-exact',
    ]);
    const script = dir.write(
      'qwen-deny.mjs',
      `process.stdin.resume();process.stdin.on('end',()=>process.stdout.write(JSON.stringify({hookSpecificOutput:{hookEventName:'PreToolUse',permissionDecision:'deny',permissionDecisionReason:'no shell'}})));`,
    );
    const file = dir.json('qwen-alias/.qwen/settings.json', {
      hooks: { PreToolUse: [{ matcher: 'Shell', hooks: [{ type: 'command', command: `node ${JSON.stringify(script)}` }] }] },
    });
    const payload = {
      session_id: 's',
      cwd: dir.root,
      hook_event_name: 'PreToolUse',
      tool_name: 'run_shell_command',
      tool_input: { command: 'ls' },
    };
    const r = await runCli(['dispatch', '--agent', 'qwen', '--settings', file, '--dialect', 'qwen'], JSON.stringify(payload));
    expect(r.code, r.stderr).toBe(0);
    expect(json(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });

  test('a note on stderr comes with "{}" on stdout (Qwen parses stderr when stdout is empty)', async () => {
    const file = settings('qwen-stop', { Stop: { out: { continue: false, stopReason: 'enough' } } });
    const r = await runCli(
      ['dispatch', '--agent', 'qwen', '--settings', file],
      JSON.stringify({ session_id: 's', cwd: dir.root, hook_event_name: 'Stop', stop_hook_active: false }),
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('{}\n');
    expect(r.stderr).toMatch(/keep going/);
  });
});

describe('Gemini CLI', () => {
  test('BeforeTool ask is answered natively', () => {
    const o = geminiWire.encodeDecision(
      decision('PreToolUse', { decision: 'ask', reason: 'confirm' }),
      input('PreToolUse', 'BeforeTool', { tool_name: 'Bash' }),
    );
    expect(json(o.stdout)).toEqual({ decision: 'ask', reason: 'confirm' });
  });

  test('an output replacement is an AfterTool deny whose reason is the replacement', () => {
    const o = geminiWire.encodeDecision(
      decision('PostToolUse', { updatedOutput: 'TOKEN=[redacted]' }),
      input('PostToolUse', 'AfterTool', { tool_name: 'Bash' }),
    );
    expect(json(o.stdout)).toEqual({ decision: 'deny', reason: 'TOKEN=[redacted]' });
  });

  test('a PostToolUse block is an AfterTool deny carrying the feedback', () => {
    const o = geminiWire.encodeDecision(
      decision('PostToolUse', { blocked: true, decision: 'block', reason: 'lint failed' }),
      input('PostToolUse', 'AfterTool', { tool_name: 'Bash' }),
    );
    expect(json(o.stdout)).toEqual({ decision: 'deny', reason: 'lint failed' });
  });

  test("a Gemini hook's AfterTool deny replaces the result with its reason in the engine too", () => {
    const hook = {
      id: 'h',
      event: 'PostToolUse',
      handler: { type: 'command', command: 'x' },
      source: { kind: 'cli', file: 'f', path: 'p' },
      dialect: 'gemini',
    } as never;
    const r = gemini.bridge!.decodeResult(hook, {}, {
      status: 'completed',
      exitCode: 0,
      stdout: '{"decision":"deny","reason":"hidden"}',
      stderr: '',
    } as never);
    expect(json(r.stdout)).toEqual({
      decision: 'block',
      reason: 'hidden',
      hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: 'hidden' },
    });
  });
});

describe('Codex', () => {
  /** A `codex exec` PreToolUse payload (it always reports bypassPermissions) for `rm -rf x`. */
  const codexRmUnderBypass = () => ({
    session_id: 's',
    turn_id: 't',
    transcript_path: null,
    cwd: dir.root,
    hook_event_name: 'PreToolUse',
    model: 'm',
    permission_mode: 'bypassPermissions',
    tool_name: 'Bash',
    tool_input: { command: 'rm -rf x' },
    tool_use_id: 'c1',
  });

  // Codex 0.169.0 ran two identical PreToolUse groups twice; Claude Code, Gemini CLI and Qwen
  // Code run such hooks once (test/agents/dialect-diff/matchers.agents.test.ts).
  test('identical hooks are each kept and each run, as Codex runs them', async () => {
    const log = join(dir.root, 'codex-twice.log');
    const group = { matcher: 'Bash', hooks: [{ type: 'command', command: `echo x >> ${JSON.stringify(log)}` }] };
    const file = dir.json('codex-twice/.codex/hooks.json', { hooks: { PreToolUse: [group, group] } });
    const c = await loadConfig({ cwd: dir.root, discover: false, settingsFiles: [file], dialect: 'codex' });
    expect(c.hooks.map((h) => h.dialect)).toEqual(['codex', 'codex']);
    const r = await runCli(
      ['dispatch', '--agent', 'codex', '--settings', file, '--dialect', 'codex'],
      JSON.stringify(codexRmUnderBypass()),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(log, 'utf8')).toBe('x\nx\n');
    // The same groups in a Claude settings file collapse into one hook.
    const claudeFile = dir.json('claude-twice/settings.json', { hooks: { PreToolUse: [group, group] } });
    expect((await loadConfig({ cwd: dir.root, discover: false, settingsFiles: [claudeFile] })).hooks).toHaveLength(1);
  });

  test('non-MCP output replacement withholds the output with decision: block; MCP output is replaced', () => {
    const bash = codexWire.encodeDecision(
      decision('PostToolUse', { updatedOutput: 'x=[redacted]' }),
      input('PostToolUse', 'PostToolUse', { tool_name: 'Bash' }),
    );
    expect(json(bash.stdout)).toMatchObject({ decision: 'block', reason: expect.stringMatching(/withheld.*x=\[redacted\]/) });
    const mcp = codexWire.encodeDecision(
      decision('PostToolUse', { updatedOutput: { ok: 1 } }),
      input('PostToolUse', 'PostToolUse', { tool_name: 'mcp__s__t' }),
    );
    expect(json(mcp.stdout).hookSpecificOutput.updatedMCPToolOutput).toEqual({ ok: 1 });
  });

  test('a PostToolUse block is decision: block with the reason', () => {
    const o = codexWire.encodeDecision(
      decision('PostToolUse', { blocked: true, decision: 'block', reason: 'fix the lint' }),
      input('PostToolUse', 'PostToolUse', { tool_name: 'Bash' }),
    );
    expect(json(o.stdout)).toEqual({ decision: 'block', reason: 'fix the lint' });
  });

  test('a Stop payload with last_assistant_message: null runs the Stop hooks (no exit 1)', async () => {
    const file = settings('codex-stop', { Stop: { out: { decision: 'block', reason: 'run the tests' } } });
    const payload = {
      session_id: 's',
      turn_id: 't',
      transcript_path: null,
      cwd: dir.root,
      hook_event_name: 'Stop',
      model: 'm',
      permission_mode: 'default',
      stop_hook_active: false,
      last_assistant_message: null,
    };
    const r = await runCli(['dispatch', '--agent', 'codex', '--settings', file], JSON.stringify(payload));
    expect(r.code, r.stderr).toBe(0);
    expect(json(r.stdout)).toEqual({ decision: 'block', reason: 'run the tests' });
  });

  test('an ask under bypassPermissions (codex exec) is denied with the reason, never allowed', async () => {
    const file = settings('codex-ask', {
      PreToolUse: {
        matcher: 'Bash',
        out: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'really delete?' } },
      },
    });
    const payload = codexRmUnderBypass();
    const r = await runCli(['dispatch', '--agent', 'codex', '--settings', file], JSON.stringify(payload));
    expect(r.code, r.stderr).toBe(0);
    const hso = json(r.stdout).hookSpecificOutput;
    expect(hso.permissionDecision).toBe('deny');
    expect(hso.permissionDecisionReason).toMatch(/bypassPermissions.*really delete\?/);
  });

  // Codex 0.169.0 rejects a PreToolUse `ask` and `continue: false` (its hook failed, the command
  // ran: test/agents/dialect-diff native-files). In a Codex file run by the engine both still stop
  // the call: an answer that asks to stop never turns into a pass.
  test('a Codex-format hook answering ask or continue:false is refused under dispatch, not run past', async () => {
    const payload = codexRmUnderBypass();
    const answers = {
      ask: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'really delete?' } },
      stop: { continue: false, stopReason: 'stop here' },
    };
    for (const [name, out] of Object.entries(answers)) {
      const file = settings(`codex-native-${name}`, { PreToolUse: { matcher: 'Bash', out } });
      // The same hooks as a Codex file (.codex/hooks.json), read with Codex's rules.
      const codexFile = dir.json(`codex-native-${name}/.codex/hooks.json`, JSON.parse(readFileSync(file, 'utf8')));
      const r = await runCli(['dispatch', '--agent', 'codex', '--settings', codexFile, '--dialect', 'codex'], JSON.stringify(payload));
      expect(r.code, r.stderr).toBe(0);
      expect(json(r.stdout).hookSpecificOutput?.permissionDecision, `${name}: ${r.stdout}`).toBe('deny');
    }
  });

  test('the bundled .env guard blocks a Codex apply_patch touching .env', async () => {
    const examples = join(ROOT, 'examples');
    const patch = '*** Begin Patch\n*** Update File: config/.env\n@@\n-KEY=1\n+KEY=2\n*** End Patch\n';
    const payload = {
      session_id: 's',
      turn_id: 't',
      transcript_path: null,
      cwd: examples,
      hook_event_name: 'PreToolUse',
      model: 'm',
      permission_mode: 'default',
      tool_name: 'apply_patch',
      tool_input: { command: patch },
      tool_use_id: 'c1',
    };
    const r = await runCli(
      ['dispatch', '--agent', 'codex', '--settings', join(examples, 'settings.json'), '--cwd', examples],
      JSON.stringify(payload),
    );
    expect(r.code, r.stderr).toBe(0);
    const hso = json(r.stdout).hookSpecificOutput;
    expect(hso.permissionDecision).toBe('deny');
    expect(hso.permissionDecisionReason).toMatch(/\.env/);
    // A patch of another file passes.
    const other = { ...payload, tool_input: { command: patch.replace('config/.env', 'src/app.ts') } };
    const ok = await runCli(
      ['dispatch', '--agent', 'codex', '--settings', join(examples, 'settings.json'), '--cwd', examples],
      JSON.stringify(other),
    );
    expect(ok.stdout).toBe('');
  });

  test('a Codex hook matching Write or Edit fires on apply_patch (its matcher aliases)', () => {
    const hook = { id: 'h', event: 'PreToolUse', matcher: 'Edit', matcherMode: 'claude-narrow', dialect: 'codex' } as never;
    expect(codex.bridge!.matchValue!(hook, 'ApplyPatch')).toBe('Edit');
    expect(codex.bridge!.matchValue!({ ...(hook as object), matcher: 'Bash' } as never, 'ApplyPatch')).toBe('apply_patch');
  });
});

describe('payloads', () => {
  test('optional input fields accept null; unknown fields (prompt_id, effort) pass', () => {
    const base = {
      session_id: 's',
      transcript_path: '',
      cwd: '/',
      hook_event_name: 'Stop',
      hook_execution_id: 'e',
      timestamp: 't',
      stop_hook_active: false,
    };
    expect(inputSchema('Stop').safeParse({ ...base, last_assistant_message: null, permission_mode: null }).success).toBe(true);
    expect(inputSchema('Stop').safeParse({ ...base, prompt_id: 'p', effort: 'high', brand_new: { x: 1 } }).success).toBe(true);
    // Required fields stay required.
    expect(inputSchema('Stop').safeParse({ ...base, stop_hook_active: null }).success).toBe(false);
  });

  test('a payload without hook_event_name is an invalid payload (exit 1)', async () => {
    const file = settings('no-event', { PreToolUse: { out: {} } });
    for (const agent of ['claude', 'codex', 'gemini', 'qwen', 'kimi', 'cursor']) {
      const r = await runCli(
        ['dispatch', '--agent', agent, '--settings', file],
        JSON.stringify({ session_id: 's', cwd: dir.root, tool_name: 'Bash' }),
      );
      expect({ agent, code: r.code }).toEqual({ agent, code: 1 });
      expect(r.stderr).toMatch(/invalid payload.*hook_event_name/);
    }
  });
});

describe('Copilot CLI', () => {
  const hook = {
    id: 'h',
    event: 'PreToolUse',
    handler: { type: 'command', command: 'x' },
    source: { kind: 'cli', file: 'f', path: 'p' },
    dialect: 'copilot',
  } as never;
  test('exit 2 on preToolUse denies (Copilot CLI 1.0), with stderr as the reason', () => {
    const r = copilot.bridge!.decodeResult(hook, {}, { status: 'completed', exitCode: 2, stdout: '', stderr: 'no rm' } as never);
    expect({ code: r.exitCode, stderr: r.stderr }).toEqual({ code: 2, stderr: 'no rm' });
  });

  test('preToolUse and postToolUse additionalContext, and modifiedResult, are read', () => {
    const pre = copilot.bridge!.decodeResult(hook, {}, {
      status: 'completed',
      exitCode: 0,
      stdout: '{"permissionDecision":"allow","additionalContext":"ctx"}',
      stderr: '',
    } as never);
    expect(json(pre.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'allow', additionalContext: 'ctx' });
    const post = copilot.bridge!.decodeResult({ ...(hook as object), event: 'PostToolUse' } as never, {}, {
      status: 'completed',
      exitCode: 0,
      stdout: '{"additionalContext":"c2","modifiedResult":{"resultType":"success","textResultForLlm":"[redacted]"}}',
      stderr: '',
    } as never);
    expect(json(post.stdout).hookSpecificOutput).toEqual({
      hookEventName: 'PostToolUse',
      additionalContext: 'c2',
      updatedToolOutput: '[redacted]',
    });
  });

  test('dispatch answers context before and after a tool, and an output replacement as modifiedResult', () => {
    const pre = copilotWire.encodeDecision(
      decision('PreToolUse', { additionalContext: ['on main'] }),
      input('PreToolUse', 'preToolUse', { tool_name: 'Bash' }),
    );
    expect(json(pre.stdout)).toEqual({ additionalContext: 'on main' });
    const post = copilotWire.encodeDecision(
      decision('PostToolUse', { updatedOutput: 'k=[redacted]', additionalContext: ['note'] }),
      input('PostToolUse', 'postToolUse', { tool_name: 'Bash' }),
    );
    expect(json(post.stdout)).toEqual({
      additionalContext: 'note',
      modifiedResult: { resultType: 'success', textResultForLlm: 'k=[redacted]' },
    });
  });
});

describe('Cursor', () => {
  test('StrReplace is the Edit tool, its path read as file_path', () => {
    const d = cursorWire.decodePayload({
      hook_event_name: 'preToolUse',
      conversation_id: 'c',
      tool_name: 'StrReplace',
      tool_input: { path: '.env', old_string: 'a', new_string: 'b' },
    });
    expect('payload' in d && d.payload).toMatchObject({ tool_name: 'Edit', tool_input: { file_path: '.env', old_string: 'a' } });
  });
});

describe('Factory Droid', () => {
  test("a Claude Bash guard fires on Droid's Execute; a Droid hook naming Execute fires too", async () => {
    const deny = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no shell' } };
    const claudeFile = settings('droid-claude', { PreToolUse: { matcher: 'Bash', out: deny } });
    const script = dir.write(
      'droid-native.mjs',
      `process.stdin.resume();process.stdin.on('end',()=>process.stdout.write(${JSON.stringify(JSON.stringify(deny))}));`,
    );
    const droidFile = dir.json('droid-proj/.factory/settings.json', {
      hooks: { PreToolUse: [{ matcher: 'Execute', hooks: [{ type: 'command', command: `node ${JSON.stringify(script)}` }] }] },
    });
    const payload = {
      session_id: 's',
      transcript_path: '',
      cwd: dir.root,
      hook_event_name: 'PreToolUse',
      permission_mode: 'default',
      tool_name: 'Execute',
      tool_input: { command: 'ls', summary: 's', riskLevel: 'low', riskLevelReason: 'r' },
    };
    for (const file of [claudeFile, droidFile]) {
      const r = await runCli(['dispatch', '--agent', 'droid', '--settings', file], JSON.stringify(payload));
      expect(r.code, r.stderr).toBe(0);
      expect(json(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    }
    const read = await runCli(
      ['dispatch', '--agent', 'droid', '--settings', droidFile],
      JSON.stringify({ ...payload, tool_name: 'Read', tool_input: { file_path: 'x' } }),
    );
    expect(read.stdout).toBe('');
  });

  test('Create is Write: a Claude Write matcher, converted to Droid, names Create', async () => {
    const { parseDialect, serializeDialect } = await import('../../src/agents/registry.js');
    const parsed = await parseDialect(
      'claude',
      { hooks: { PreToolUse: [{ matcher: 'Write|Bash', hooks: [{ type: 'command', command: 'x' }] }] } },
      { file: '/p/.claude/settings.json', kind: 'project' },
    );
    const out = await serializeDialect('droid', parsed.hooks);
    // Droid reads every matcher as an unanchored regex, so exact names are written anchored.
    expect(JSON.parse(out.text).hooks.PreToolUse[0].matcher).toBe('^(?:Create|Execute)$');
  });

  // Droid 0.225.2 ran `Execu` and `ecute` for Execute, `Execute|` for Create, `*` for both, and
  // two identical groups twice; ` Execute` and `Execute,Create` matched nothing
  // (test/agents/dialect-diff/matchers.agents.test.ts).
  test('matchers are unanchored regexes with `*` for all, and identical hooks each run', async () => {
    const hooks = (matcher: string) => ({ hooks: { PreToolUse: [{ matcher, hooks: [{ type: 'command', command: 'true' }] }] } });
    const matches = async (matcher: string, tool: string) => {
      const file = dir.json(`droid-m-${Buffer.from(matcher).toString('hex')}/.factory/settings.json`, hooks(matcher));
      const c = await loadConfig({ cwd: dir.root, discover: false, settingsFiles: [file], dialect: 'droid' });
      const { createHookEngine } = await import('../../src/index.js');
      const engine = createHookEngine({ hooks: c.hooks, cwd: dir.root, projectDir: dir.root, spawner: false });
      const d = await engine.run('PreToolUse', { session_id: 's', cwd: dir.root, transcript_path: '', tool_name: tool, tool_input: {} });
      return d.hooks.length > 0;
    };
    expect(await matches('Execu', 'Bash')).toBe(true);
    expect(await matches('ecute', 'Bash')).toBe(true);
    expect(await matches('Execute|', 'Write')).toBe(true);
    expect(await matches('*', 'Write')).toBe(true);
    expect(await matches(' Execute', 'Bash')).toBe(false);
    expect(await matches('Execute,Create', 'Bash')).toBe(false);
    expect(await matches('Create', 'Bash')).toBe(false);
    const twice = dir.json('droid-twice/.factory/settings.json', {
      hooks: { PreToolUse: [hooks('Execute').hooks.PreToolUse[0], hooks('Execute').hooks.PreToolUse[0]] },
    });
    expect((await loadConfig({ cwd: dir.root, discover: false, settingsFiles: [twice], dialect: 'droid' })).hooks).toHaveLength(2);
  });
});

describe('Gemini CLI and Qwen Code settings files', () => {
  const withComments = `{
  // guard the shell
  "hooks": {
    /* before a tool */
    "BeforeTool": [
      { "matcher": "run_shell_command", "hooks": [{ "type": "command", "command": "echo guard", }], },
    ],
  },
}`;

  test('JSON with comments and trailing commas is read, as those agents read it', async () => {
    const home = dir.path('jsonc-home');
    dir.write('jsonc-home/.gemini/settings.json', withComments);
    dir.write('jsonc-home/.qwen/settings.json', withComments.replace('BeforeTool', 'PreToolUse').replace('echo guard', 'echo qwen-guard'));
    const prev = process.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH;
    process.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH = dir.path('jsonc-home/none.json');
    try {
      const c = await loadConfig({
        cwd: home,
        projectDir: home,
        homeDir: home,
        managedSettingsPath: dir.path('none.json'),
        discoverDialects: ['gemini', 'qwen'],
      });
      expect(c.diagnostics.filter((d) => d.level === 'error')).toEqual([]);
      expect(
        c.hooks.map((h) => `${h.dialect}:${(h.handler as { command: string }).command}`),
        JSON.stringify([c.diagnostics, c.files]),
      ).toEqual(['gemini:echo guard', 'qwen:echo qwen-guard']);
    } finally {
      if (prev === undefined) delete process.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH;
      else process.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH = prev;
    }
  });

  test('a broken file is reported with its file, line and column', async () => {
    const file = dir.write('jsonc-bad/.gemini/settings.json', '{\n  // ok\n  "hooks": { "BeforeTool": [ }\n}');
    const c = await loadConfig({ cwd: dir.root, settingsFiles: [file], discover: false });
    const err = c.diagnostics.find((d) => d.level === 'error');
    expect(err?.file).toBe(file);
    expect(err?.message).toMatch(/line 3, column \d+/);
  });

  test("Gemini CLI's system settings (/etc/gemini-cli/settings.json, or GEMINI_CLI_SYSTEM_SETTINGS_PATH) are discovered", async () => {
    expect(gemini.configLocations({ projectDir: '/p', homeDir: '/h', env: {} })[0]).toEqual({
      kind: 'user',
      file: process.platform === 'linux' ? '/etc/gemini-cli/settings.json' : expect.any(String),
    });
    const sys = dir.json('gemini-system/settings.json', {
      hooks: { BeforeTool: [{ hooks: [{ type: 'command', command: 'echo system' }] }] },
    });
    const home = dir.path('gemini-system-home');
    const prev = process.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH;
    process.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH = sys;
    try {
      const c = await loadConfig({
        cwd: home,
        projectDir: home,
        homeDir: home,
        managedSettingsPath: dir.path('none.json'),
        discoverDialects: ['gemini'],
      });
      expect(c.hooks.map((h) => (h.handler as { command: string }).command)).toEqual(['echo system']);
    } finally {
      if (prev === undefined) delete process.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH;
      else process.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH = prev;
    }
  });
});

describe('Kimi', () => {
  const hook = (event: string, file = '/h/.kimi-code/config.toml') =>
    ({
      id: 'h',
      event,
      handler: { type: 'command', command: 'x' },
      source: { kind: 'user', file, path: 'hooks[0]' },
      dialect: 'kimi',
      dialectData: file.includes('/.kimi/') ? { variant: 'kimi-cli' } : {},
    }) as never;
  const done = (stdout: string, exitCode = 0, stderr = '') => ({ status: 'completed', exitCode, stdout, stderr }) as never;

  test('a Stop hook keeps the agent going once per turn: a block on the follow-up Stop is not honoured', () => {
    const first = kimi.bridge!.decodeResult(hook('Stop'), { stop_hook_active: false }, done('', 2, 'not yet'));
    expect(first.exitCode).toBe(2);
    const again = kimi.bridge!.decodeResult(hook('Stop'), { stop_hook_active: true }, done('', 2, 'not yet'));
    expect(again.exitCode).toBe(0);
    const json2 = kimi.bridge!.decodeResult(
      hook('Stop'),
      { stop_hook_active: true },
      done('{"hookSpecificOutput":{"permissionDecision":"deny"}}'),
    );
    expect(json2.stdout).toBe('');
  });

  test('in the engine a Kimi Stop hook that always blocks continues the agent once, not 8 times', async () => {
    const { createHookEngine } = await import('../../src/engine/engine.js');
    const file = dir.write('kimi-stop/.kimi-code/config.toml', `[[hooks]]\nevent = "Stop"\ncommand = "echo again >&2; exit 2"\n`);
    const c = await loadConfig({ cwd: dir.root, settingsFiles: [file], discover: false });
    const engine = createHookEngine({ hooks: c.hooks, projectDir: dir.root, cwd: dir.root });
    try {
      const base = { session_id: 's', transcript_path: '', cwd: dir.root };
      const first = await engine.run('Stop', { ...base, hook_event_name: 'Stop', stop_hook_active: false });
      const second = await engine.run('Stop', { ...base, hook_event_name: 'Stop', stop_hook_active: true });
      expect([first.blocked, second.blocked]).toEqual([true, false]);
    } finally {
      await engine.close();
    }
  });

  test("a UserPromptSubmit hook's plain stdout reaches the model wrapped in <hook_result>", () => {
    const r = kimi.bridge!.decodeResult(hook('UserPromptSubmit'), {}, done('branch: main\n'));
    expect(json(r.stdout).hookSpecificOutput.additionalContext).toBe('<hook_result>\nbranch: main\n</hook_result>');
  });

  test('dispatch --agent kimi prints that stdout unwrapped, as Kimi wraps what a hook prints: one wrap in all', async () => {
    const file = dir.write('kimi-wrap/.kimi-code/config.toml', `[[hooks]]\nevent = "UserPromptSubmit"\ncommand = "echo 'branch: main'"\n`);
    const payload = { hook_event_name: 'UserPromptSubmit', session_id: 's', cwd: dir.root, prompt: 'hi' };
    const r = await runCli(['dispatch', '--agent', 'kimi', '--settings', file], JSON.stringify(payload));
    expect([r.code, r.stdout]).toEqual([0, 'branch: main\n']);
    // The same hook answered to Claude Code keeps the wrap Kimi would have given it.
    const c = await runCli(['dispatch', '--agent', 'claude', '--settings', file], JSON.stringify({ ...payload, transcript_path: '' }));
    expect(json(c.stdout).hookSpecificOutput.additionalContext).toBe('<hook_result>\nbranch: main\n</hook_result>');
  });

  test('the Python kimi-cli (~/.kimi/config.toml) is discovered, and it applies updatedInput', async () => {
    expect(kimi.configLocations({ projectDir: '/p', homeDir: '/h', env: {} }).map((l) => ('file' in l ? l.file : l.dir))).toContain(
      '/h/.kimi/config.toml',
    );
    const out = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"ls -a"}}}';
    const cli = kimi.bridge!.decodeResult(hook('PreToolUse', '/h/.kimi/config.toml'), {}, done(out));
    expect(json(cli.stdout).hookSpecificOutput).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      updatedInput: { command: 'ls -a' },
    });
    const code = kimi.bridge!.decodeResult(hook('PreToolUse'), {}, done(out));
    expect(code.stdout).toBe('');
    const home = dir.path('kimi-cli-home');
    dir.write('kimi-cli-home/.kimi/config.toml', `[[hooks]]\nevent = "PreToolUse"\nmatcher = "Shell"\ncommand = "echo py"\n`);
    const c = await loadConfig({
      cwd: home,
      projectDir: home,
      homeDir: home,
      managedSettingsPath: dir.path('none.json'),
      discoverDialects: ['kimi'],
    });
    expect(c.hooks.map((h) => [(h.handler as { command: string }).command, h.dialectData?.variant])).toEqual([['echo py', 'kimi-cli']]);
  });
});

describe('convert', () => {
  test('an exec-form hook converted to a shell-only dialect has its arguments shell-quoted into the command', async () => {
    const { convertText, shellWord } = await import('../../src/agents/shared/convert.js');
    expect(shellWord("it's")).toBe(`'it'\\''s'`);
    expect(shellWord('${CLAUDE_PROJECT_DIR}/hooks/a b.sh')).toBe(`"\${CLAUDE_PROJECT_DIR}"'/hooks/a b.sh'`);
    const text = JSON.stringify({
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'node', args: ['${CLAUDE_PROJECT_DIR}/g.mjs', "it's", 'plain'] }] },
        ],
      },
    });
    for (const to of ['gemini', 'kimi', 'codex', 'cursor', 'copilot', 'droid']) {
      const r = await convertText('/p/.claude/settings.json', text, { to });
      expect(r.ok).toBe(true);
      expect(r.text, to).toContain(JSON.stringify(`node "\${CLAUDE_PROJECT_DIR}"'/g.mjs' 'it'\\''s' plain`).slice(1, -1));
      expect(r.losses.map((l) => l.message).join('\n'), to).not.toMatch(/'args'/);
    }
    // Qwen keeps exec form.
    const q = await convertText('/p/.claude/settings.json', text, { to: 'qwen' });
    expect(JSON.parse(q.text).hooks.PreToolUse[0].hooks[0].args).toEqual(['${CLAUDE_PROJECT_DIR}/g.mjs', "it's", 'plain']);
  });
});

describe('loadConfig options', () => {
  test('a wrongly shaped option is a path-qualified error, never an internal one', async () => {
    const c = await loadConfig({ cwd: dir.root, discover: false, skills: [{ hooks: {} }] } as never);
    expect(c.hooks).toEqual([]);
    expect(c.diagnostics.map((d) => `${d.path}: ${d.message}`)).toEqual(['options.skills[0].root: expected a string, got nothing']);
    const d = await loadConfig({ cwd: 42, settingsFiles: 'a.json' } as never);
    expect(d.diagnostics.map((x) => x.path)).toEqual(['options.cwd', 'options.settingsFiles']);
    expect(d.diagnostics.every((x) => !/internal error/.test(x.message))).toBe(true);
  });
});
