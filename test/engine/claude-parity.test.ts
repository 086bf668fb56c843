/**
 * Behaviour of the real Claude Code 2.1.328 that hooks written for it rely on (see docs/configuration.md
 * "Compatibility with Claude Code"), each with real hook processes and real files.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadConfig } from '../../src/config/index.js';
import { createHookEngine, DEFAULT_TIMEOUTS, type HookEngineOptions } from '../../src/engine/engine.js';
import { checkInput } from '../../src/engine/engine.js';
import { runCommand } from '../../src/backends/command.js';
import { buildHookEnv } from '../../src/backends/env.js';
import { evaluateEnvFile, MAX_ENV_FILE_BYTES } from '../../src/engine/env-file.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';

let dir: TempDir;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.cleanup());

async function engineFor(hooks: Record<string, unknown>, opts: Partial<HookEngineOptions> = {}) {
  const file = dir.json('settings.json', { hooks });
  const config = await loadConfig({ cwd: dir.root, discover: false, settingsFiles: [file] });
  expect(config.diagnostics.filter((d) => d.level === 'error')).toEqual([]);
  return createHookEngine({ hooks: config.hooks, projectDir: dir.root, cwd: dir.root, ...opts });
}

const bash = (command: string) => ({ tool_name: 'Bash', tool_input: { command }, tool_use_id: 'toolu_1' });
const emit = (obj: unknown) => `printf '%s' '${JSON.stringify(obj).replace(/'/g, `'\\''`)}'`;
const pre = (permissionDecision: string, reason = permissionDecision) =>
  emit({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision, permissionDecisionReason: reason } });
/** A hook that appends a mark to a log file, then runs `then`. */
const logged = (log: string, mark: string, then = 'true') => `echo ${mark} >> '${log}'; ${then}`;
const lines = (file: string) => {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
};

describe('shell "bash": no rc files', () => {
  it('a ~/.bashrc that prints text does not turn a deny into no decision (stdin is a socket, SHLVL unset)', async () => {
    const home = dir.path('home');
    mkdirSync(home);
    writeFileSync(`${home}/.bashrc`, 'echo "welcome from bashrc"\n');
    writeFileSync(`${home}/.bash_profile`, 'echo "welcome from profile"\n');
    const engine = await engineFor(
      {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', shell: 'bash', command: `[[ -n "$BASH_VERSION" ]] && ${pre('deny', 'no rm')}` }] },
        ],
      },
      // HOME of the hooks is the temp home (the session env overrides the host's).
      { sessionEnv: { HOME: home } },
    );
    const d = await engine.run('PreToolUse', bash('rm -rf /'));
    expect(d).toMatchObject({ blocked: true, decision: 'deny', reason: 'no rm' });
  });

  it('bash gets --norc --noprofile, SHLVL set, and no BASH_ENV from the host', async () => {
    const home = dir.path('home2');
    mkdirSync(home);
    writeFileSync(`${home}/.bashrc`, 'export FROM_RC=yes\n');
    const r = await runCommand({
      command: 'echo "rc=${FROM_RC:-no} shlvl=${SHLVL:-unset} bash_env=${BASH_ENV:-unset}"',
      shell: 'bash',
      cwd: dir.root,
      env: buildHookEnv({
        base: { PATH: process.env.PATH, HOME: home, BASH_ENV: `${home}/.bashrc`, ENV: `${home}/.bashrc` },
        passEnv: ['BASH_ENV', 'ENV'],
      }),
      stdin: '',
      timeoutMs: 10_000,
    });
    // SHLVL is 1 as set, or 2 when bash counts itself in.
    expect(r.stdout.trim()).toMatch(/^rc=no shlvl=[12] bash_env=unset$/);
  });
});

describe('plan mode (Claude Code fires tool hooks in plan mode)', () => {
  it('a secrets guard on Read still denies in permission_mode "plan", and a hook on ExitPlanMode fires', async () => {
    const log = dir.path('log');
    const engine = await engineFor({
      PreToolUse: [
        { matcher: 'Read', hooks: [{ type: 'command', command: `grep -q '\\.env"' && ${pre('deny', 'secrets stay out')}` }] },
        { matcher: 'ExitPlanMode', hooks: [{ type: 'command', command: logged(log, 'exit-plan') }] },
      ],
      PostToolUse: [{ hooks: [{ type: 'command', command: logged(log, 'post') }] }],
    });
    const d = await engine.run('PreToolUse', {
      tool_name: 'Read',
      tool_input: { file_path: `${dir.root}/.env` },
      tool_use_id: 't1',
      permission_mode: 'plan',
    });
    expect(d).toMatchObject({ blocked: true, decision: 'deny', reason: 'secrets stay out' });
    await engine.run(
      'PreToolUse',
      { tool_name: 'ExitPlanMode', tool_input: { plan: 'do it' }, tool_use_id: 't2' },
      { permissionMode: 'plan' },
    );
    await engine.run(
      'PostToolUse',
      { tool_name: 'ExitPlanMode', tool_input: { plan: 'do it' }, tool_response: {}, tool_use_id: 't2' },
      { permissionMode: 'plan' },
    );
    expect(lines(log)).toEqual(['exit-plan', 'post']);
  });

  it("Blade's rule is the engine option skipToolHooksInPlanMode; other events still run", async () => {
    const log = dir.path('log');
    const hooks = {
      PreToolUse: [{ hooks: [{ type: 'command', command: logged(log, 'pre', pre('deny')) }] }],
      UserPromptSubmit: [{ hooks: [{ type: 'command', command: logged(log, 'prompt') }] }],
    };
    const engine = await engineFor(hooks, { skipToolHooksInPlanMode: true });
    expect((await engine.run('PreToolUse', bash('x'), { permissionMode: 'plan' })).decision).toBeUndefined();
    expect((await engine.run('PreToolUse', bash('x'), { permissionMode: 'default' })).decision).toBe('deny');
    await engine.run('UserPromptSubmit', { prompt: 'hi' }, { permissionMode: 'plan' });
    expect(lines(log)).toEqual(['pre', 'prompt']);
  });
});

describe('ask does not hide a later deny', () => {
  for (const order of [
    ['ask', 'deny'],
    ['deny', 'ask'],
  ] as const) {
    it(`hooks answering ${order.join(' then ')}: deny wins${order[0] === 'ask' ? ' and both hooks run' : ''}`, async () => {
      const log = dir.path('log');
      const engine = await engineFor({
        PreToolUse: [{ matcher: 'Bash', hooks: order.map((v) => ({ type: 'command', command: logged(log, v, pre(v, `said ${v}`)) })) }],
      });
      const d = await engine.run('PreToolUse', bash('git push --force'));
      expect(d).toMatchObject({ blocked: true, decision: 'deny', reason: 'said deny' });
      // Serial and stopping at the first deny (a deliberate difference: Claude Code runs both in parallel).
      expect(lines(log)).toEqual(order[0] === 'ask' ? ['ask', 'deny'] : ['deny']);
    });
  }

  it('an ask followed by an allow stays ask', async () => {
    const engine = await engineFor({
      PreToolUse: [
        {
          hooks: [
            { type: 'command', command: pre('ask') },
            { type: 'command', command: pre('allow') },
          ],
        },
      ],
    });
    const d = await engine.run('PreToolUse', bash('x'));
    expect(d.decision).toBe('ask');
    expect(d.hooks).toHaveLength(2);
  });
});

describe('dedup of one firing', () => {
  it('the same command in two matcher groups (Bash and *) runs once; a whitespace variant runs separately', async () => {
    const log = dir.path('log');
    const cmd = logged(log, 'guard');
    const engine = await engineFor({
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: cmd }] },
        { matcher: '*', hooks: [{ type: 'command', command: cmd }] },
        { matcher: 'Bash|Edit', hooks: [{ type: 'command', command: cmd }] },
        { matcher: '*', hooks: [{ type: 'command', command: `${cmd} ` }] },
      ],
    });
    const d = await engine.run('PreToolUse', bash('ls'));
    expect(lines(log)).toEqual(['guard', 'guard']);
    expect(d.hooks).toHaveLength(2);
    // A firing the shared command does not match in one group still runs it once.
    await engine.run('PreToolUse', { tool_name: 'Read', tool_input: { file_path: '/x' }, tool_use_id: 't' });
    expect(lines(log)).toHaveLength(4);
  });

  it('hooks differing in `if` stay separate; two plugins with the same command stay separate', async () => {
    const log = dir.path('log');
    const engine = await engineFor({
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: logged(log, 'x'), if: 'Bash(git *)' }] },
        { matcher: '*', hooks: [{ type: 'command', command: logged(log, 'x') }] },
      ],
    });
    await engine.run('PreToolUse', bash('git status'));
    expect(lines(log)).toEqual(['x', 'x']);
    // Two plugins, one command text each: the key carries the plugin root, so both run.
    for (const name of ['alpha', 'beta'])
      dir.json(`${name}/hooks/hooks.json`, { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: logged(log, 'plugin') }] }] } });
    const config = await loadConfig({ cwd: dir.root, discover: false, plugins: [dir.path('alpha'), dir.path('beta')] });
    const plugins = createHookEngine({ hooks: config.hooks, projectDir: dir.root, cwd: dir.root });
    await plugins.run('PreToolUse', bash('ls'));
    expect(lines(log).filter((l) => l === 'plugin')).toHaveLength(2);
  });
});

describe('CLAUDE_ENV_FILE is evaluated as shell', () => {
  async function exportsOf(content: string) {
    const engine = await engineFor({
      SessionStart: [{ hooks: [{ type: 'command', command: `cat >> "$CLAUDE_ENV_FILE" <<'EOF'\n${content}\nEOF` }] }],
    });
    return engine.run('SessionStart', { source: 'startup' });
  }

  it('PATH extension, several names on one line, quoting and trailing comments', async () => {
    const d = await exportsOf(
      [
        'export PATH="$PATH:/opt/x/bin"',
        'export A=1 B=2  # two at once',
        "export GREETING='hello world' # quoted",
        'PLAIN=3',
        'export Q="a \\"b\\" $A"',
      ].join('\n'),
    );
    const env = d.eventOutput.env as Record<string, string>;
    expect(env.PATH).toBe(`${process.env.PATH}:/opt/x/bin`);
    expect(env).toMatchObject({ A: '1', B: '2', GREETING: 'hello world', Q: 'a "b" 1' });
    // Set but not exported: a shell would not pass it on either.
    expect(env.PLAIN).toBeUndefined();
    expect(env.CLAUDE_ENV_FILE).toBeUndefined();
  });

  it('a file that fails half way or loops is bounded and reported, never thrown', async () => {
    const file = dir.path('env.sh');
    writeFileSync(file, 'export A=1\nexit 3\n');
    const failed = await evaluateEnvFile(file, buildHookEnv(), dir.root);
    expect(failed.env).toEqual({});
    expect(failed.warning).toMatch(/could not be evaluated/);
    writeFileSync(file, 'x'.repeat(MAX_ENV_FILE_BYTES + 1));
    expect((await evaluateEnvFile(file, buildHookEnv(), dir.root)).warning).toMatch(/not evaluated/);
  });
});

describe('defaults and details', () => {
  it('command hooks default to the reference 600 s (no kill at 60 s)', () => {
    expect(DEFAULT_TIMEOUTS.command).toBe(600);
    expect(DEFAULT_TIMEOUTS.http).toBe(600);
    expect(DEFAULT_TIMEOUTS.mcp_tool).toBe(600);
  });

  it('updatedMCPToolOutput replaces only an MCP tool output; updatedToolOutput works for every tool', async () => {
    const engine = await engineFor({
      PostToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            { type: 'command', command: emit({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedMCPToolOutput: 'redacted' } }) },
          ],
        },
        {
          matcher: 'Read',
          hooks: [
            { type: 'command', command: emit({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: 'redacted' } }) },
          ],
        },
        {
          matcher: 'mcp__.*',
          hooks: [
            { type: 'command', command: emit({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedMCPToolOutput: 'redacted' } }) },
          ],
        },
      ],
    });
    const post = (tool_name: string) => ({ tool_name, tool_input: {}, tool_response: 'secret', tool_use_id: 't' });
    const b = await engine.run('PostToolUse', post('Bash'));
    expect(b.updatedOutput).toBeUndefined();
    expect(b.warnings.join('\n')).toMatch(/updatedMCPToolOutput.*not an MCP tool/);
    expect((await engine.run('PostToolUse', post('Read'))).updatedOutput).toBe('redacted');
    expect((await engine.run('PostToolUse', post('mcp__db__query'))).updatedOutput).toBe('redacted');
  });

  it('payload fields newer than the reference (prompt_id, effort) pass, and reach the hook', async () => {
    const seen = dir.path('seen.json');
    const engine = await engineFor({ PreToolUse: [{ hooks: [{ type: 'command', command: `cat > '${seen}'` }] }] });
    const input = { ...bash('ls'), prompt_id: 'p-1', effort: { level: 'high' } };
    expect(checkInput('PreToolUse', input)).toBeUndefined();
    expect(checkInput('PreToolUse', { ...bash('ls'), prompt_id: null, effort: null })).toBeUndefined();
    await engine.run('PreToolUse', input);
    expect(JSON.parse(readFileSync(seen, 'utf8'))).toMatchObject({ prompt_id: 'p-1', effort: { level: 'high' } });
  });
});

describe('environment pass-through', () => {
  it('passEnv names reach command hooks, nothing else of the host does; hook env may reference them', async () => {
    const out = dir.path('out');
    const engine = await engineFor(
      {
        PreToolUse: [
          {
            hooks: [
              {
                type: 'command',
                command: `echo "$SLACK_WEBHOOK_URL|\${SECRET_TOKEN:-none}|$HOOK_URL|$VENV_BIN|\${BASH_ENV:-none}" > '${out}'`,
                env: { HOOK_URL: '${SLACK_WEBHOOK_URL}/x', VENV_BIN: '${VIRTUAL_ENV}/bin', LEAK: '${SECRET_TOKEN}' },
              },
            ],
          },
        ],
      },
      { passEnv: ['SLACK_WEBHOOK_URL', 'VIRTUAL_ENV', 'BASH_ENV'] },
    );
    const saved = { ...process.env };
    process.env.SLACK_WEBHOOK_URL = 'http://127.0.0.1:9/hook';
    process.env.VIRTUAL_ENV = '/venv';
    process.env.SECRET_TOKEN = 'sk-1';
    process.env.BASH_ENV = '/tmp/evil';
    try {
      await engine.run('PreToolUse', bash('x'));
    } finally {
      for (const k of ['SLACK_WEBHOOK_URL', 'VIRTUAL_ENV', 'SECRET_TOKEN', 'BASH_ENV']) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
    }
    expect(readFileSync(out, 'utf8').trim()).toBe('http://127.0.0.1:9/hook|none|http://127.0.0.1:9/hook/x|/venv/bin|none');
  });
});
