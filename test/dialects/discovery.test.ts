/**
 * Discovery of other agents' hook files (docs/dialects.md "Discovery"): locations per dialect,
 * opt-in (option, setting, --discover-dialects), the trust gate on project files of every
 * dialect, dispatch, and Kimi's UserPromptSubmit matcher on the prompt text. Real files in temp
 * dirs with HOME pointed at a temp dir; real hook processes through the package executable.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { discoveryFilesOf, parseDiscoverDialects } from '../../src/agents/all.js';
import { DIALECT_NAMES } from '../../src/agents/types.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';

const BIN = join(resolve(__dirname, '../..'), 'dist/cli/bin.cjs');

function cli(
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; stdin?: string },
): Promise<{ stdout: string; stderr: string; code: number | null }> {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd, env: opts.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', rej);
    child.on('close', (code) => res({ stdout, stderr, code }));
    child.stdin.end(opts.stdin ?? '');
  });
}

/** A Cursor beforeShellExecution hook that denies with `reason`. */
function cursorDeny(reason: string): unknown {
  return {
    version: 1,
    hooks: {
      beforeShellExecution: [{ command: `cat >/dev/null; echo '{"permission":"deny","user_message":"no","agent_message":"${reason}"}'` }],
    },
  };
}

let dir: TempDir;
let home: string;
let proj: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  dir = tempDir('agent-hooks-discovery-');
  home = dir.path('home');
  proj = dir.path('proj');
  dir.write('home/.keep', '');
  dir.write('proj/.keep', '');
  env = { PATH: process.env.PATH ?? '', HOME: home, AGENT_HOOKS_TRUST_STORE: dir.path('store', 'trust.json') };
});
afterEach(() => dir.cleanup());

const runBash = (extra: string[] = []) =>
  cli(['run', 'PreToolUse', '--tool', 'Bash', '--input', '{"command":"ls"}', '--json', ...extra], { cwd: proj, env });

describe('locations', () => {
  it('lists every dialect’s user and project files, user first; KIMI_CODE_HOME and CODEX_HOME move the user layer', () => {
    dir.json('proj/.github/hooks/b.json', {});
    dir.json('proj/.github/hooks/a.json', {});
    dir.write('proj/.github/hooks/notes.txt', '');
    const files = discoveryFilesOf(['codex', 'gemini', 'qwen', 'kimi', 'cursor', 'copilot'], {
      projectDir: proj,
      homeDir: home,
      env: { KIMI_CODE_HOME: dir.path('kimi'), CODEX_HOME: dir.path('cx'), GEMINI_CLI_SYSTEM_SETTINGS_PATH: dir.path('gsys.json') },
    });
    expect(files.map((f) => [f.dialect, f.kind, f.file])).toEqual([
      ['codex', 'user', dir.path('cx', 'hooks.json')],
      ['codex', 'user', dir.path('cx', 'config.toml')],
      ['codex', 'project', join(proj, '.codex', 'hooks.json')],
      ['codex', 'project', join(proj, '.codex', 'config.toml')],
      ['gemini', 'user', dir.path('gsys.json')],
      ['gemini', 'user', join(home, '.gemini', 'settings.json')],
      ['gemini', 'project', join(proj, '.gemini', 'settings.json')],
      ['qwen', 'user', join(home, '.qwen', 'settings.json')],
      ['qwen', 'project', join(proj, '.qwen', 'settings.json')],
      ['qwen', 'local', join(proj, '.qwen', 'settings.local.json')],
      ['kimi', 'user', dir.path('kimi', 'config.toml')],
      ['kimi', 'user', join(home, '.kimi', 'config.toml')],
      ['cursor', 'user', join(home, '.cursor', 'hooks.json')],
      ['cursor', 'project', join(proj, '.cursor', 'hooks.json')],
      ['copilot', 'project', join(proj, '.github', 'hooks', 'a.json')],
      ['copilot', 'project', join(proj, '.github', 'hooks', 'b.json')],
    ]);
    const defaults = discoveryFilesOf(['kimi', 'codex'], { projectDir: proj, homeDir: home, env: {} });
    expect(defaults.map((f) => f.file)).toContain(join(home, '.kimi-code', 'config.toml'));
    expect(defaults.map((f) => f.file)).toContain(join(home, '.codex', 'hooks.json'));
  });

  it('in the home directory a project file is the user file, read once as the user’s', () => {
    const files = discoveryFilesOf(['cursor'], { projectDir: home, homeDir: home, env: {} });
    expect(files).toEqual([{ dialect: 'cursor', kind: 'user', file: join(home, '.cursor', 'hooks.json') }]);
  });

  it('parses --discover-dialects values and rejects unknown names', () => {
    expect(parseDiscoverDialects('all')).toEqual({ ok: true, value: 'all' });
    expect(parseDiscoverDialects(' cursor, gemini ')).toEqual({ ok: true, value: ['cursor', 'gemini'] });
    const bad = parseDiscoverDialects('cursor,vim');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.message).toMatch(/unknown dialect "vim"/);
  });
});

describe('loadConfig discoverDialects', () => {
  function writeEveryDialect(): void {
    const claudeHooks = (cmd: string) => ({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: cmd }] }] } });
    dir.json('home/.claude/settings.json', claudeHooks('echo claude-user'));
    dir.json('home/.codex/hooks.json', claudeHooks('echo codex-user'));
    dir.write(
      'proj/.codex/config.toml',
      'model = "x"\n[[hooks.PreToolUse]]\nmatcher = "Bash"\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "echo codex-project"\n',
    );
    dir.json('home/.gemini/settings.json', {
      theme: 'dark',
      hooks: { BeforeTool: [{ matcher: 'run_shell_command', hooks: [{ type: 'command', command: 'echo gemini-user' }] }] },
    });
    dir.json('proj/.gemini/settings.json', { hooks: { BeforeTool: [{ hooks: [{ type: 'command', command: 'echo gemini-project' }] }] } });
    dir.json('proj/.qwen/settings.json', claudeHooks('echo qwen-project'));
    dir.json('proj/.qwen/settings.local.json', claudeHooks('echo qwen-local'));
    dir.write('home/.kimi-code/config.toml', '[[hooks]]\nevent = "PreToolUse"\nmatcher = "Bash"\ncommand = "echo kimi-user"\n');
    dir.json('home/.cursor/hooks.json', { version: 1, hooks: { beforeShellExecution: [{ command: 'echo cursor-user' }] } });
    dir.json('proj/.cursor/hooks.json', { version: 1, hooks: { beforeShellExecution: [{ command: 'echo cursor-project' }] } });
    dir.json('proj/.github/hooks/guard.json', { version: 1, hooks: { preToolUse: [{ type: 'command', bash: 'echo copilot-project' }] } });
  }
  const commands = (hooks: Array<{ handler: { type: string } }>) =>
    hooks.map((h) => (h.handler as { command?: string; bash?: string }).command);
  const base = () => ({
    cwd: proj,
    projectDir: proj,
    homeDir: home,
    managedSettingsPath: dir.path('no-managed.json'),
    unsafeSkipTrustGate: true,
  });

  it('default: Claude’s locations only (nothing changes for Claude users)', async () => {
    writeEveryDialect();
    const c = await loadConfig(base());
    expect(commands(c.hooks)).toEqual(['echo claude-user']);
    expect(c.files.map((f) => f.file)).not.toContain(join(proj, '.cursor', 'hooks.json'));
  });

  it("'all': every dialect's files, each read as its location's dialect, with user/project/local kinds", async () => {
    writeEveryDialect();
    const prev = process.env.KIMI_CODE_HOME;
    delete process.env.KIMI_CODE_HOME;
    try {
      const c = await loadConfig({ ...base(), discoverDialects: 'all' });
      expect(c.diagnostics.filter((d) => d.level === 'error')).toEqual([]);
      expect(commands(c.hooks)).toEqual([
        'echo claude-user',
        'echo codex-user',
        'echo codex-project',
        'echo gemini-user',
        'echo gemini-project',
        'echo qwen-project',
        'echo qwen-local',
        'echo kimi-user',
        'echo cursor-user',
        'echo cursor-project',
        'echo copilot-project',
      ]);
      const byCmd = new Map(c.hooks.map((h) => [(h.handler as { command: string }).command, h]));
      expect(byCmd.get('echo qwen-local')!.source.kind).toBe('local');
      expect(byCmd.get('echo cursor-project')).toMatchObject({ dialect: 'cursor', source: { kind: 'project' } });
      expect(byCmd.get('echo kimi-user')).toMatchObject({ dialect: 'kimi', source: { kind: 'user' } });
      expect(byCmd.get('echo qwen-project')!.dialect).toBe('qwen');
    } finally {
      if (prev !== undefined) process.env.KIMI_CODE_HOME = prev;
    }
  });

  it('a list picks dialects; the user setting does too; a project setting is ignored with a warning', async () => {
    writeEveryDialect();
    const listed = await loadConfig({ ...base(), discoverDialects: ['gemini'] });
    expect(commands(listed.hooks)).toEqual(['echo claude-user', 'echo gemini-user', 'echo gemini-project']);

    dir.json('home/.claude/settings.json', { agentHooks: { discoverDialects: ['cursor'] } });
    const bySetting = await loadConfig(base());
    expect(commands(bySetting.hooks)).toEqual(['echo cursor-user', 'echo cursor-project']);
    // The option wins over the setting.
    expect(commands((await loadConfig({ ...base(), discoverDialects: ['claude'] })).hooks)).toEqual([]);

    dir.json('home/.claude/settings.json', {});
    dir.json('proj/.claude/settings.json', { agentHooks: { discoverDialects: 'all' } });
    const byProject = await loadConfig(base());
    expect(commands(byProject.hooks)).toEqual([]);
    expect(byProject.diagnostics).toContainEqual(
      expect.objectContaining({ level: 'warning', path: 'agentHooks.discoverDialects', file: join(proj, '.claude', 'settings.json') }),
    );
  });

  it('a broken file of another dialect contributes nothing, with a path-qualified error; the rest still load', async () => {
    dir.json('home/.claude/settings.json', { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo ok' }] }] } });
    dir.write('proj/.cursor/hooks.json', '{ "version": 1, "hooks": ');
    dir.write('home/.kimi-code/config.toml', '[[hooks]]\nevent = "PreToolUse"\ncommand = "x"\nextra = 1\n');
    const c = await loadConfig({ ...base(), discoverDialects: ['cursor', 'kimi'] });
    expect(commands(c.hooks)).toEqual(['echo ok']);
    expect(c.diagnostics).toContainEqual(expect.objectContaining({ level: 'error', file: join(proj, '.cursor', 'hooks.json') }));
    expect(c.files).toContainEqual({ file: join(home, '.kimi-code', 'config.toml'), kind: 'user', ok: false });
  });

  it('the names are the registry’s', () => {
    expect(DIALECT_NAMES).toContain('cursor');
  });
});

describe('trust gate on other agents’ project files (CLI)', () => {
  it('an untrusted .cursor/hooks.json hook does not run; after `agent-hooks trust` it runs; editing it flips to modified', async () => {
    dir.json('proj/.cursor/hooks.json', cursorDeny('cursor says no'));

    const untrusted = await runBash(['--discover-dialects', 'cursor']);
    expect(untrusted.code).toBe(0);
    expect(untrusted.stdout).not.toContain('cursor says no');
    expect(untrusted.stderr).toMatch(/1 project command hook skipped \(untrusted/);

    const status = await cli(['status', '--discover-dialects', 'cursor', '--json'], { cwd: proj, env });
    const st = JSON.parse(status.stdout);
    expect(st.state).toBe('untrusted');
    expect(st.hooks).toHaveLength(1);
    expect(st.hooks[0]).toMatchObject({ needsTrust: true, source: { kind: 'project', file: join(proj, '.cursor', 'hooks.json') } });

    const trust = await cli(['trust', '--discover-dialects', 'cursor', '--digest', st.digest], { cwd: proj, env });
    expect(trust.code).toBe(0);
    const trusted = await runBash(['--discover-dialects', 'cursor']);
    expect(trusted.stdout).toContain('cursor says no');
    expect(trusted.code).toBe(2);

    dir.json('proj/.cursor/hooks.json', cursorDeny('edited'));
    // The edited hook does not run (its answer never counts): the event fails closed naming the change.
    const modified = await runBash(['--discover-dialects', 'cursor']);
    const answer = JSON.parse(modified.stdout) as { decision: string; reason: string; hooks: Array<{ outcome: string }> };
    expect(answer.decision).toBe('deny');
    expect(answer.reason).toMatch(/changed since it was reviewed .*agent-hooks trust --cwd/);
    expect(answer.hooks.map((h) => h.outcome)).toEqual(['error']);
    expect(modified.code).toBe(2);
  });

  it('the setting makes run, status and trust agree without flags; the digest covers the discovered project files', async () => {
    dir.json('home/.claude/settings.json', { agentHooks: { discoverDialects: ['gemini'] } });
    dir.json('proj/.gemini/settings.json', {
      hooks: {
        BeforeTool: [{ hooks: [{ type: 'command', command: 'cat >/dev/null; echo \'{"decision":"deny","reason":"gemini says no"}\'' }] }],
      },
    });
    const before = JSON.parse((await cli(['status', '--json'], { cwd: proj, env })).stdout);
    expect(before.hooks).toHaveLength(1);
    expect((await runBash()).stdout).not.toContain('gemini says no');
    expect((await cli(['trust'], { cwd: proj, env })).code).toBe(0);
    expect((await runBash()).stdout).toContain('gemini says no');
    // Claude-only discovery does not see the file, so its digest differs: the status says so.
    const claudeOnly = JSON.parse((await cli(['status', '--json', '--discover-dialects', 'claude'], { cwd: proj, env })).stdout);
    expect(claudeOnly.hooks).toHaveLength(0);
    expect(claudeOnly.digest).not.toBe(before.digest);
  });

  it('user-level files of another dialect need no trust', async () => {
    dir.json('home/.cursor/hooks.json', cursorDeny('user cursor says no'));
    const r = await runBash(['--discover-dialects', 'cursor']);
    expect(r.stdout).toContain('user cursor says no');
    expect(r.stderr).not.toContain('skipped');
  });

  it('an unknown dialect in --discover-dialects is a usage error (exit 1)', async () => {
    const r = await runBash(['--discover-dialects', 'cursor,emacs']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unknown dialect "emacs"');
  });
});

describe('dispatch discovers like run', () => {
  const payload = (cwd: string) =>
    JSON.stringify({
      session_id: 's',
      transcript_path: '',
      cwd,
      hook_event_name: 'PreToolUse',
      permission_mode: 'default',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      tool_use_id: 't1',
    });

  it('default: Claude’s files only; --discover-dialects or the setting adds another agent’s (fast path included)', async () => {
    dir.json('home/.gemini/settings.json', {
      hooks: {
        BeforeTool: [
          { hooks: [{ type: 'command', command: 'cat >/dev/null; echo \'{"decision":"deny","reason":"gemini user says no"}\'' }] },
        ],
      },
    });
    const plain = await cli(['dispatch', '--agent', 'claude'], { cwd: proj, env, stdin: payload(proj) });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toBe('');

    const flagged = await cli(['dispatch', '--agent', 'claude', '--discover-dialects', 'gemini'], { cwd: proj, env, stdin: payload(proj) });
    expect(JSON.parse(flagged.stdout).hookSpecificOutput).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: expect.stringContaining('gemini user says no'),
    });

    dir.json('home/.claude/settings.json', { agentHooks: { discoverDialects: 'all' } });
    const bySetting = await cli(['dispatch', '--agent', 'cursor'], {
      cwd: proj,
      env,
      stdin: JSON.stringify({
        hook_event_name: 'beforeShellExecution',
        command: 'ls',
        cwd: proj,
        conversation_id: 'c',
        generation_id: 'g',
        workspace_roots: [proj],
      }),
    });
    expect(JSON.parse(bySetting.stdout)).toMatchObject({ permission: 'deny' });
  });
});

describe('Kimi UserPromptSubmit matcher on the prompt text', () => {
  it('a Kimi hook runs only for prompts its regex matches, with no "runs for every prompt" warning', async () => {
    const kimiHome = dir.path('kimi');
    dir.write(
      'kimi/config.toml',
      '[[hooks]]\nevent = "UserPromptSubmit"\nmatcher = "sec(ret|rets)"\ncommand = "cat >/dev/null; echo prompt has a secret >&2; exit 2"\n',
    );
    const kenv = { ...env, KIMI_CODE_HOME: kimiHome };
    const send = (prompt: string) => {
      dir.json('payload.json', { session_id: 's', transcript_path: '', cwd: proj, prompt });
      return cli(['run', 'UserPromptSubmit', '--payload', dir.path('payload.json'), '--json', '--discover-dialects', 'kimi'], {
        cwd: proj,
        env: kenv,
      });
    };
    const hit = await send('here are my secrets');
    expect(hit.code).toBe(2);
    expect(hit.stdout).toContain('prompt has a secret');
    const miss = await send('hello');
    expect(miss.code).toBe(0);
    expect(miss.stdout).not.toContain('prompt has a secret');
    expect(miss.stderr).not.toContain('runs for every');
  });

  it('plan: matchField hooks are matched per firing (not memoized) and keep config order with other hooks', async () => {
    const { buildPlanIndex, planHooks } = await import('../../src/engine/plan.js');
    const mk = (id: string, extra: object) => ({
      id,
      event: 'UserPromptSubmit' as const,
      handler: { type: 'command' as const, command: id },
      source: { kind: 'cli' as const, path: id },
      dedupKey: id,
      ...extra,
    });
    const index = buildPlanIndex([mk('a', {}), mk('b', { matcher: '^go', matcherMode: 'regex', matchField: 'prompt' }), mk('c', {})]);
    const ids = (prompt: string) => planHooks(index, 'UserPromptSubmit', { prompt }, { cwd: proj }).map((p) => p.hook.id);
    expect(ids('go now')).toEqual(['a', 'b', 'c']);
    expect(ids('stop')).toEqual(['a', 'c']);
    expect(ids('go again')).toEqual(['a', 'b', 'c']);
  });
});
