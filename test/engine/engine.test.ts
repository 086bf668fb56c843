import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { loadConfig } from '../../src/config/index.js';
import { createHookEngine, InvalidHookInputError, type HookEngineOptions } from '../../src/engine/engine.js';
import type { EventName } from '../../src/events/catalog.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';

let dir: TempDir;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.cleanup());

async function engineFor(hooks: Record<string, unknown>, opts: Partial<HookEngineOptions> = {}, extra: Record<string, unknown> = {}) {
  const file = dir.json('settings.json', { hooks, ...extra });
  const config = await loadConfig({ cwd: dir.root, discover: false, settingsFiles: [file] });
  expect(config.diagnostics.filter((d) => d.level === 'error')).toEqual([]);
  return createHookEngine({ hooks: config.hooks, projectDir: dir.root, cwd: dir.root, ...opts });
}

const bash = (command: string) => ({ tool_name: 'Bash', tool_input: { command }, tool_use_id: 'toolu_1' });
const emit = (obj: unknown) => `printf '%s' '${JSON.stringify(obj).replace(/'/g, `'\\''`)}'`;
const pre = (permissionDecision: string, extra: Record<string, unknown> = {}) =>
  emit({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision, ...extra } });

describe('serial PreToolUse', () => {
  it('accumulates updatedInput: each hook sees the input as rewritten so far', async () => {
    // Hook 1 appends " --one"; hook 2 records what it received and appends " --two".
    dir.write(
      'append.mjs',
      `let raw='';for await (const c of process.stdin) raw+=c;const i=JSON.parse(raw);
       const fs = await import('node:fs'); fs.appendFileSync(process.argv[3], i.tool_input.command + '\\n');
       console.log(JSON.stringify({hookSpecificOutput:{hookEventName:'PreToolUse',updatedInput:{...i.tool_input,command:i.tool_input.command+' '+process.argv[2]}}}));`,
    );
    const seen = dir.path('seen.txt');
    const engine = await engineFor({
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: 'node', args: [dir.path('append.mjs'), '--one', seen] }] },
        { matcher: 'Bash', hooks: [{ type: 'command', command: 'node', args: [dir.path('append.mjs'), '--two', seen] }] },
      ],
    });
    const d = await engine.run('PreToolUse', bash('make'));
    expect(d.updatedInput).toEqual({ command: 'make --one --two' });
    expect(readFileSync(seen, 'utf8')).toBe('make\nmake --one\n');
    expect(d.blocked).toBe(false);
  });

  it('short-circuits on the first deny: later hooks do not run', async () => {
    const marker = dir.path('ran');
    const engine = await engineFor({
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: pre('deny', { permissionDecisionReason: 'nope' }) }] },
        { matcher: 'Bash', hooks: [{ type: 'command', command: `touch ${marker}` }] },
      ],
    });
    const d = await engine.run('PreToolUse', bash('rm -rf /'));
    expect(d).toMatchObject({ blocked: true, decision: 'deny', reason: 'nope' });
    expect(d.hooks).toHaveLength(1);
    expect(existsSync(marker)).toBe(false);
  });

  it('exit 2 blocks with stderr even when stdout says allow', async () => {
    const engine = await engineFor({
      PreToolUse: [{ hooks: [{ type: 'command', command: `${pre('allow')}; echo 'stop right there' >&2; exit 2` }] }],
    });
    const d = await engine.run('PreToolUse', bash('x'));
    expect(d).toMatchObject({ blocked: true, decision: 'deny', reason: 'stop right there' });
    expect(d.hooks[0]).toMatchObject({ outcome: 'blocking', exitCode: 2 });
  });

  it('bypassPermissions turns ask into allow but keeps the rewrite; plan mode skips the event under skipToolHooksInPlanMode', async () => {
    const engine = await engineFor({
      PreToolUse: [{ hooks: [{ type: 'command', command: pre('ask', { updatedInput: { command: 'safe' } }) }] }],
    });
    expect((await engine.run('PreToolUse', bash('x'))).decision).toBe('ask');
    const y = await engine.run('PreToolUse', bash('x'), { permissionMode: 'bypassPermissions' });
    expect(y).toMatchObject({ decision: 'allow', updatedInput: { command: 'safe' } });
    // Claude Code's rule (the default): PreToolUse fires in plan mode.
    const p = await engine.run('PreToolUse', bash('x'), { permissionMode: 'plan' });
    expect(p.hooks).toHaveLength(1);
    expect(p.decision).toBe('ask');
    // Blade's rule, as an engine option.
    const blade = createHookEngine({ hooks: engine.list(), projectDir: dir.root, cwd: dir.root, skipToolHooksInPlanMode: true });
    const b = await blade.run('PreToolUse', bash('x'), { permissionMode: 'plan' });
    expect(b.hooks).toHaveLength(0);
    expect(b.decision).toBeUndefined();
  });

  it('an invalid rewrite is a validation error that denies, never a silent fallback', async () => {
    const engine = await engineFor(
      { PreToolUse: [{ hooks: [{ type: 'command', command: pre('allow', { updatedInput: { command: 42 } }) }] }] },
      {
        validateToolInput: (_tool, input) =>
          typeof input.command === 'string' ? { ok: true } : { ok: false, error: 'command: expected string' },
      },
    );
    const d = await engine.run('PreToolUse', bash('ls'));
    expect(d).toMatchObject({ blocked: true, decision: 'deny' });
    expect(d.reason).toContain('command: expected string');
    expect(d.updatedInput).toBeUndefined();
  });

  it('__proto__ and constructor keys in updatedInput stay plain data', async () => {
    const engine = await engineFor({
      PreToolUse: [
        {
          hooks: [
            {
              type: 'command',
              command: pre('allow', {
                updatedInput: { __proto__: { polluted: 1 }, constructor: { prototype: { polluted: 1 } }, command: 'ls' },
              }),
            },
          ],
        },
      ],
    });
    // JSON.stringify drops a literal __proto__ key, so write it into the script text directly.
    const raw =
      '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"__proto__":{"polluted":1},"command":"ls"}}}';
    const engine2 = await engineFor({ PreToolUse: [{ hooks: [{ type: 'command', command: `printf '%s' '${raw}'` }] }] });
    for (const e of [engine, engine2]) {
      const d = await e.run('PreToolUse', bash('x'));
      expect(d.updatedInput?.command).toBe('ls');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.getPrototypeOf(d.updatedInput)).toBe(Object.prototype);
    }
    const d2 = await engine2.run('PreToolUse', bash('x'));
    expect(Object.hasOwn(d2.updatedInput!, '__proto__')).toBe(true);
  });
});

describe('parallel events', () => {
  it('merge in config order, not completion order', async () => {
    const ctx = (text: string, delay: number) =>
      `sleep ${delay}; ${emit({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: text } })}`;
    const engine = await engineFor({
      PostToolUse: [
        {
          hooks: [
            { type: 'command', command: ctx('first', 0.3) },
            { type: 'command', command: ctx('second', 0) },
            { type: 'command', command: ctx('third', 0.1) },
          ],
        },
      ],
    });
    const d = await engine.run('PostToolUse', { ...bash('ls'), tool_response: { stdout: '' } });
    expect(d.additionalContext).toEqual(['first', 'second', 'third']);
  });

  it('never exceed maxConcurrentHooks live executions', async () => {
    const engine = createHookEngine({ maxConcurrentHooks: 3, cwd: dir.root });
    let live = 0;
    let peak = 0;
    for (let i = 0; i < 10; i++) {
      engine.register({
        event: 'PostToolUse',
        fn: async () => {
          live++;
          peak = Math.max(peak, live);
          await new Promise((r) => setTimeout(r, 5));
          live--;
          return undefined;
        },
      });
    }
    const runs = Array.from({ length: 20 }, () => engine.run('PostToolUse', { ...bash('ls'), tool_response: 'ok' }));
    const decisions = await Promise.all(runs);
    expect(peak).toBe(3);
    expect(decisions.every((d) => d.hooks.length === 10)).toBe(true);
  });
});

describe('Stop continuation', () => {
  it('block continues the agent; consecutive blocks are capped', async () => {
    const engine = await engineFor(
      { Stop: [{ hooks: [{ type: 'command', command: emit({ decision: 'block', reason: 'keep going' }) }] }] },
      { stopHookMaxConsecutiveBlocks: 3 },
    );
    const input = { stop_hook_active: false, last_assistant_message: 'done' };
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await engine.run('Stop', input, { sessionId: 's1' }));
    expect(results.map((d) => d.blocked)).toEqual([true, true, true, false]);
    expect(results[3]!.warnings.join()).toContain('cap 3');
    // Another session has its own count.
    expect((await engine.run('Stop', input, { sessionId: 's2' })).blocked).toBe(true);
  });

  it('a Stop hook that fails lets the agent stop (default ignore)', async () => {
    const engine = await engineFor({ Stop: [{ hooks: [{ type: 'command', command: 'exit 1' }] }] });
    const d = await engine.run('Stop', { stop_hook_active: false });
    expect(d.blocked).toBe(false);
    expect(d.warnings.join()).toContain('status code 1');
  });
});

describe('failure and timeout behavior with real processes', () => {
  it('failureBehavior deny on a crashing PreToolUse hook blocks', async () => {
    const engine = await engineFor({ PreToolUse: [{ hooks: [{ type: 'command', command: 'exit 3', failureBehavior: 'deny' }] }] });
    const d = await engine.run('PreToolUse', bash('x'));
    expect(d).toMatchObject({ blocked: true, decision: 'deny' });
    expect(d.hooks[0]).toMatchObject({ outcome: 'non_blocking_error', policy: 'deny', exitCode: 3 });
  });

  it('global timeoutBehavior ask on a hook that hangs', async () => {
    const engine = await engineFor(
      { PreToolUse: [{ hooks: [{ type: 'command', command: 'sleep 30', timeout: 0.3 }] }] },
      { timeoutBehavior: 'ask' },
    );
    const d = await engine.run('PreToolUse', bash('x'));
    expect(d.decision).toBe('ask');
    expect(d.hooks[0]).toMatchObject({ outcome: 'timeout', policy: 'ask', exitCode: null });
  });

  it('a missing script is a non-blocking error under the default policy', async () => {
    const engine = await engineFor({ PreToolUse: [{ hooks: [{ type: 'command', command: dir.path('nope.sh') }] }] });
    const d = await engine.run('PreToolUse', bash('x'));
    expect(d.blocked).toBe(false);
    expect(d.hooks[0]!.outcome).toBe('non_blocking_error');
    expect(d.hooks[0]!.exitCode).toBe(127);
  });
});

describe('matching end to end', () => {
  it('ApplyPatch with the sensitive path only in the third file triggers an Edit(**/.env) hook', async () => {
    const engine = await engineFor({
      PreToolUse: [
        { matcher: 'ApplyPatch', hooks: [{ type: 'command', if: 'Edit(**/.env)', command: "echo 'no .env edits' >&2; exit 2" }] },
      ],
    });
    const patch = [
      '*** Begin Patch',
      '*** Update File: a.ts',
      '*** Add File: b.md',
      '+x',
      '*** Update File: config/.env',
      '*** End Patch',
    ].join('\n');
    const d = await engine.run('PreToolUse', { tool_name: 'ApplyPatch', tool_input: { patch } });
    expect(d).toMatchObject({ blocked: true, reason: 'no .env edits' });
    const safe = await engine.run('PreToolUse', { tool_name: 'ApplyPatch', tool_input: { patch: '*** Update File: a.ts\n' } });
    expect(safe.hooks).toHaveLength(0);
  });

  it('an invalid regex matcher never matches', async () => {
    const engine = await engineFor({ PreToolUse: [{ matcher: 'Bash(', hooks: [{ type: 'command', command: 'exit 2' }] }] });
    const d = await engine.run('PreToolUse', bash('x'));
    expect(d.hooks).toHaveLength(0);
  });

  it('if Bash(git commit:*) runs only for commits; MCP tool names match', async () => {
    const engine = await engineFor({
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', if: 'Bash(git commit:*)', command: 'exit 2' }] },
        { matcher: 'mcp__memory__.*', hooks: [{ type: 'command', command: pre('ask') }] },
      ],
    });
    expect((await engine.run('PreToolUse', bash('git commit -m x'))).blocked).toBe(true);
    expect((await engine.run('PreToolUse', bash('npm test && git commit -m x'))).blocked).toBe(true);
    expect((await engine.run('PreToolUse', bash('git status'))).hooks).toHaveLength(0);
    expect((await engine.run('PreToolUse', { tool_name: 'mcp__memory__create', tool_input: {} })).decision).toBe('ask');
  });
});

describe('plugins and dedup', () => {
  it('two plugins with the identical command both run, with their own CLAUDE_PLUGIN_ROOT', async () => {
    for (const name of ['alpha', 'beta']) {
      dir.json(`${name}/hooks/hooks.json`, {
        hooks: { PostToolUse: [{ hooks: [{ type: 'command', command: '"${CLAUDE_PLUGIN_ROOT}/hook.sh"' }] }] },
      });
      dir.write(
        `${name}/hook.sh`,
        `#!/bin/sh\ncat >/dev/null\nprintf '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"%s"}}' "$(basename "$CLAUDE_PLUGIN_ROOT")"\n`,
        0o755,
      );
    }
    const config = await loadConfig({ cwd: dir.root, discover: false, plugins: [dir.path('alpha'), dir.path('beta')] });
    const engine = createHookEngine({ hooks: config.hooks, cwd: dir.root });
    const d = await engine.run('PostToolUse', { ...bash('ls'), tool_response: '' });
    expect(d.additionalContext).toEqual(['alpha', 'beta']);
  });

  it('identical settings hooks in two files run once', async () => {
    const hooks = { PostToolUse: [{ hooks: [{ type: 'command', command: `echo x >> ${dir.path('count')}` }] }] };
    const a = dir.json('a.json', { hooks });
    const b = dir.json('b.json', { hooks });
    const config = await loadConfig({ cwd: dir.root, discover: false, settingsFiles: [a, b] });
    const engine = createHookEngine({ hooks: config.hooks, cwd: dir.root });
    await engine.run('PostToolUse', { ...bash('ls'), tool_response: '' });
    expect(readFileSync(dir.path('count'), 'utf8')).toBe('x\n');
  });
});

describe('environment, stdin and output limits', () => {
  it('command hooks get a minimal environment plus CLAUDE_PROJECT_DIR and the session env', async () => {
    process.env.AGENT_HOOKS_TEST_SECRET = 'hunter2';
    try {
      const engine = await engineFor(
        {
          UserPromptSubmit: [
            {
              hooks: [
                {
                  type: 'command',
                  command: 'echo "secret=[$AGENT_HOOKS_TEST_SECRET] project=[$CLAUDE_PROJECT_DIR] sess=[$SESSION_VAR] hook=[$HOOK_VAR]"',
                  env: { HOOK_VAR: 'h' },
                },
              ],
            },
          ],
        },
        { sessionEnv: { SESSION_VAR: 's' } },
      );
      const d = await engine.run('UserPromptSubmit', { prompt: 'hi' });
      expect(d.additionalContext).toEqual([`secret=[] project=[${dir.root}] sess=[s] hook=[h]`]);
    } finally {
      delete process.env.AGENT_HOOKS_TEST_SECRET;
    }
  });

  it('a 1 MiB payload to a hook that never reads stdin completes, with stdin truncation flagged', async () => {
    const engine = await engineFor({ PostToolUse: [{ hooks: [{ type: 'command', command: 'exit 0' }] }] });
    const d = await engine.run('PostToolUse', { ...bash('cat big'), tool_response: 'y'.repeat(1024 * 1024) });
    expect(d.hooks[0]).toMatchObject({ outcome: 'success', stdinTruncated: true });
  });

  it('the truncated payload is still valid JSON with a visible marker', async () => {
    const engine = await engineFor({
      PostToolUse: [
        {
          hooks: [
            {
              type: 'command',
              command:
                "node -e \"let r='';process.stdin.on('data',c=>r+=c).on('end',()=>{const i=JSON.parse(r);console.log(String(i.tool_response).length < 200000 && /truncated/.test(i.tool_response) ? 'ok' : 'bad')})\"",
            },
          ],
        },
      ],
    });
    const d = await engine.run('PostToolUse', { ...bash('cat big'), tool_response: 'z'.repeat(1024 * 1024) });
    expect(d.hooks[0]!.outcome).toBe('success');
    expect(d.hooks[0]!.stdinTruncated).toBe(true);
  });

  it('a hook flooding stdout is capped and flagged', async () => {
    const engine = await engineFor({ PostToolUse: [{ hooks: [{ type: 'command', command: 'head -c 20000000 /dev/zero | tr "\\0" a' }] }] });
    const d = await engine.run('PostToolUse', { ...bash('x'), tool_response: '' });
    expect(d.hooks[0]!.stdoutTruncated).toBe(true);
  });

  it('SessionStart hooks can persist environment through CLAUDE_ENV_FILE', async () => {
    const engine = await engineFor({
      SessionStart: [
        {
          hooks: [
            {
              type: 'command',
              command: `echo "export NODE_ENV=production" >> "$CLAUDE_ENV_FILE"; echo "export GREETING='hello world'" >> "$CLAUDE_ENV_FILE"`,
            },
          ],
        },
      ],
    });
    const d = await engine.run('SessionStart', { source: 'startup' });
    expect(d.eventOutput.env).toEqual({ NODE_ENV: 'production', GREETING: 'hello world' });
  });
});

describe('library API', () => {
  it('function hooks: typed registration, project scoping, unregister', async () => {
    const engine = createHookEngine({ cwd: dir.root, projectDir: dir.root });
    const off = engine.register({
      event: 'PreToolUse',
      matcher: 'Bash',
      fn: (input) => ({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: String((input.tool_input as { command: string }).command).includes('rm') ? 'deny' : 'allow',
        },
      }),
    });
    engine.register({ event: 'PreToolUse', projectDir: '/some/other/project', fn: () => ({ decision: 'block' }) });
    expect((await engine.run('PreToolUse', bash('rm x'))).decision).toBe('deny');
    expect((await engine.run('PreToolUse', bash('ls'))).decision).toBe('allow');
    off();
    expect((await engine.run('PreToolUse', bash('rm x'))).hooks).toHaveLength(0);
  });

  it('a function hook that overruns its timeout is aborted and its policy applies', async () => {
    const engine = createHookEngine({ cwd: dir.root });
    let aborted = false;
    engine.register({
      event: 'PreToolUse',
      timeout: 0.05,
      timeoutBehavior: 'deny',
      fn: (_i, { signal }) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            resolve(undefined);
          });
        }),
    });
    const d = await engine.run('PreToolUse', bash('x'));
    expect(d).toMatchObject({ decision: 'deny', blocked: true });
    expect(aborted).toBe(true);
  });

  it('invalid input is a path-qualified InvalidHookInputError', async () => {
    const engine = createHookEngine({ cwd: dir.root });
    engine.register({ event: 'PreToolUse', fn: () => undefined });
    await expect(engine.run('PreToolUse', { tool_name: 5, tool_input: {} })).rejects.toThrow(InvalidHookInputError);
    await expect(engine.run('PreToolUse', { tool_name: 5, tool_input: {} })).rejects.toThrow(/tool_name/);
  });

  it('every execution goes to the JSONL audit log', async () => {
    const log = dir.path('audit', 'hooks.jsonl');
    const engine = await engineFor(
      { PreToolUse: [{ hooks: [{ type: 'command', command: pre('deny', { permissionDecisionReason: 'r' }) }] }] },
      { audit: log },
    );
    await engine.run('PreToolUse', bash('x'), { sessionId: 'sess-9' });
    await engine.close();
    const lines = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ session_id: 'sess-9', event: 'PreToolUse', decision: 'deny', outcome: 'success', tool_name: 'Bash' });
    expect(typeof lines[0].hook_execution_id).toBe('string');
  });

  it('each execution gets its own hook_execution_id and a timestamp', async () => {
    const seen: Array<Record<string, unknown>> = [];
    const engine = createHookEngine({ cwd: dir.root });
    for (let i = 0; i < 2; i++) engine.register({ event: 'Notification', fn: (input) => void seen.push(input) });
    await engine.run('Notification', { message: 'hi', notification_type: 'idle_prompt' });
    expect(seen).toHaveLength(2);
    expect(seen[0]!.hook_execution_id).not.toBe(seen[1]!.hook_execution_id);
    expect(Date.parse(String(seen[0]!.timestamp))).not.toBeNaN();
  });

  it('async hooks run in the background and do not decide', async () => {
    const marker = dir.path('async-done');
    const engine = await engineFor({
      PostToolUse: [{ hooks: [{ type: 'command', command: `sleep 0.2; touch ${marker}; exit 2`, async: true }] }],
    });
    const d = await engine.run('PostToolUse', { ...bash('x'), tool_response: '' });
    expect(d.hooks).toHaveLength(0);
    expect(existsSync(marker)).toBe(false);
    await engine.drain();
    expect(existsSync(marker)).toBe(true);
  });

  it('disabled engines pass every event through', async () => {
    const engine = createHookEngine({ disabled: true });
    engine.register({ event: 'Stop', fn: () => ({ decision: 'block', reason: 'x' }) });
    const events: EventName[] = ['Stop', 'PreToolUse'];
    for (const e of events) expect((await engine.run(e, {})).hooks).toHaveLength(0);
  });
});
