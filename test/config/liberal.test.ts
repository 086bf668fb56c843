/**
 * Liberal reading, loud reporting: files Claude Code accepts load here with warnings; a really
 * broken file or plugin is skipped with a path-qualified error while every other source keeps
 * deciding, through `run` and `dispatch --agent claude` alike (the built CLI in dist/).
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/index.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { useTempDir } from '../helpers/tmp.js';

/** The child sees PATH and HOME only, so no setting of the machine's environment leaks in. */
const cli = (args: string[], opts: { cwd?: string; input?: string; env?: Record<string, string> } = {}) =>
  runCli(args, {
    ...opts,
    timeout: 30_000,
    env: { PATH: process.env.PATH ?? '', HOME: opts.env?.HOME ?? process.env.HOME ?? '', ...opts.env },
  });

requireBuiltCli();
const dir = useTempDir();

const deny = (reason: string) =>
  `printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"${reason}"}}'`;

/** Shaped like Anthropic's security-guidance plugin: an async-rewake handler with rewake* keys. */
function securityGuidancePlugin(root: string) {
  mkdirSync(join(root, '.claude-plugin'), { recursive: true });
  dir.json(`${root.slice(dir.root.length + 1)}/.claude-plugin/plugin.json`, {
    name: 'security-guidance',
    version: '1.0.0',
    description: 'Security reminders',
  });
  dir.json(`${root.slice(dir.root.length + 1)}/hooks/hooks.json`, {
    description: 'Security reminder hook',
    hooks: {
      PreToolUse: [
        {
          matcher: 'Edit|Write|MultiEdit',
          hooks: [
            {
              type: 'command',
              command: `${deny('security-guidance: eval() found')}`,
              rewakeMessage: 'Security reminder',
              rewakeSummary: 'security reminder shown',
            },
          ],
        },
      ],
    },
  });
}

describe('liberal reading of what Claude Code accepts', () => {
  it("the security-guidance plugin's rewakeMessage/rewakeSummary are warnings; its hook guards", async () => {
    const root = dir.path('security-guidance');
    securityGuidancePlugin(root);
    const cfg = await loadConfig({ cwd: dir.root, discover: false, plugins: [root] });
    expect(cfg.diagnostics.filter((d) => d.level === 'error')).toEqual([]);
    expect(cfg.diagnostics.map((d) => `${d.level} ${d.path}`)).toEqual([
      'warning hooks.PreToolUse[0].hooks[0].rewakeMessage',
      'warning hooks.PreToolUse[0].hooks[0].rewakeSummary',
    ]);
    expect(cfg.hooks).toHaveLength(1);
    const r = cli([
      'run',
      'PreToolUse',
      '--plugin',
      root,
      '--cwd',
      dir.root,
      '--tool',
      'Write',
      '--input',
      '{"file_path":"a.js","content":"eval(x)"}',
      '--json',
    ]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ decision: 'deny', reason: 'security-guidance: eval() found' });
    expect(r.stderr).toMatch(/rewakeMessage/);
  });

  it('a plugin manifest whose hooks is a path string is accepted (the same file is read once), and check passes it', async () => {
    dir.json('p/.claude-plugin/plugin.json', { name: 'p', hooks: './hooks/hooks.json' });
    dir.json('p/hooks/hooks.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: deny('from p') }] }] } });
    dir.json('q/.claude-plugin/plugin.json', { name: 'q', hooks: './config/more.json' });
    dir.json('q/config/more.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: deny('from q') }] }] } });
    const cfg = await loadConfig({ cwd: dir.root, discover: false, plugins: [dir.path('p'), dir.path('q')] });
    expect(cfg.diagnostics).toEqual([]);
    expect(cfg.hooks.map((h) => `${h.source.pluginName} ${h.source.file}`)).toEqual([
      `p ${dir.path('p/hooks/hooks.json')}`,
      `q ${dir.path('q/config/more.json')}`,
    ]);
    const check = cli(['check', dir.path('p'), dir.path('q')]);
    expect(check.stdout).toMatch(/0 error\(s\)/);
    expect(check.code).toBe(0);
  });

  it('manifest hooks may be a list of paths or an inline object; a named file that is missing is an error for that plugin only', async () => {
    dir.json('l/.claude-plugin/plugin.json', { name: 'l', hooks: ['./a.json', './b.json'] });
    dir.json('l/a.json', { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo a' }] }] } });
    dir.json('l/b.json', { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo b' }] }] } });
    dir.json('i/.claude-plugin/plugin.json', { name: 'i', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo inline' }] }] } });
    dir.json('m/.claude-plugin/plugin.json', { name: 'm', hooks: './nope.json' });
    dir.json('m/hooks/hooks.json', { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo m' }] }] } });
    const cfg = await loadConfig({ cwd: dir.root, discover: false, plugins: [dir.path('l'), dir.path('i'), dir.path('m')] });
    expect(cfg.hooks.map((h) => (h.handler as { command: string }).command)).toEqual(['echo a', 'echo b', 'echo inline']);
    expect(cfg.diagnostics).toEqual([
      expect.objectContaining({
        level: 'error',
        file: dir.path('m/.claude-plugin/plugin.json'),
        path: 'hooks',
        message: expect.stringContaining('nope.json'),
      }),
    ]);
  });

  it('check warns on unknown keys (exit 0) and keeps failing on real mistakes (exit 1)', () => {
    const warnOnly = dir.json('warn/settings.json', {
      hooks: { Stop: [{ description: 'x', hooks: [{ type: 'command', command: 'true', comand: 'x' }] }] },
    });
    const w = cli(['check', warnOnly]);
    expect(w.code).toBe(0);
    expect(w.stdout).toMatch(/hooks\.Stop\[0\]\.description/);
    expect(w.stdout).toMatch(/did you mean "command"/);
    const broken = dir.json('broken/settings.json', {
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true', timeout: 'ten' }] }] },
    });
    const b = cli(['check', broken]);
    expect(b.code).toBe(1);
    expect(b.stdout).toMatch(/hooks\.Stop\[0\]\.hooks\[0\]\.timeout/);
  });
});

describe('a broken source never turns a deny into nothing', () => {
  function brokenAndDenying() {
    dir.json('broken/.claude-plugin/plugin.json', { name: 'broken' });
    dir.write('broken/hooks/hooks.json', '{ "hooks": { "PreToolUse": [ { "hooks": [ } ] } }');
    dir.json('guard/hooks/hooks.json', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: deny('guard says no') }] }] },
    });
    return [dir.path('broken'), dir.path('guard')];
  }

  it('run: the broken plugin is skipped with a path-qualified error, the other plugin still denies (exit 2)', () => {
    const [broken, guard] = brokenAndDenying();
    const r = cli([
      'run',
      'PreToolUse',
      '--plugin',
      broken!,
      '--plugin',
      guard!,
      '--cwd',
      dir.root,
      '--tool',
      'Bash',
      '--input',
      '{"command":"rm -rf /"}',
      '--json',
    ]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ blocked: true, decision: 'deny', reason: 'guard says no' });
    expect(r.stderr).toContain(join(broken!, 'hooks', 'hooks.json'));
    expect(r.stderr).toMatch(/invalid JSON at 1:/);
  });

  it('run: with nothing else deciding, the skipped source still makes the exit code 1', () => {
    const [broken] = brokenAndDenying();
    const r = cli(['run', 'PreToolUse', '--plugin', broken!, '--cwd', dir.root, '--tool', 'Bash', '--input', '{"command":"ls"}', '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ blocked: false });
  });

  it('dispatch --agent claude: the deny of the good plugin reaches the agent', () => {
    const [broken, guard] = brokenAndDenying();
    const payload = {
      session_id: 's',
      transcript_path: '',
      cwd: dir.root,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf /' },
      tool_use_id: 't',
      permission_mode: 'default',
    };
    const r = cli(['dispatch', '--agent', 'claude', '--plugin', broken!, '--plugin', guard!, '--cwd', dir.root], {
      input: JSON.stringify(payload),
    });
    const out = JSON.parse(r.stdout || '{}') as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } };
    const denied = r.code === 2 ? r.stderr.includes('guard says no') : out.hookSpecificOutput?.permissionDecision === 'deny';
    expect(denied).toBe(true);
    expect(r.stderr).toContain(join(broken!, 'hooks', 'hooks.json'));
  });
});

describe('CLAUDE_CONFIG_DIR and agentHooks.passEnv', () => {
  it('user settings are read from $CLAUDE_CONFIG_DIR; a project cannot name pass-through variables', () => {
    const home = dir.path('home');
    const configDir = dir.path('claude-config');
    const project = dir.path('project');
    mkdirSync(home, { recursive: true });
    mkdirSync(project, { recursive: true });
    const out = dir.path('out');
    dir.json('claude-config/settings.json', {
      agentHooks: { passEnv: ['FROM_USER'] },
      hooks: { Stop: [{ hooks: [{ type: 'command', command: `echo "\${FROM_USER:-unset}|\${FROM_PROJECT:-unset}" >> '${out}'` }] }] },
    });
    dir.json('project/.claude/settings.local.json', { agentHooks: { passEnv: ['FROM_PROJECT'] } });
    const r = cli(['run', 'Stop', '--cwd', project, '--payload', '-'], {
      input: JSON.stringify({ stop_hook_active: false }),
      env: { HOME: home, CLAUDE_CONFIG_DIR: configDir, FROM_USER: 'u', FROM_PROJECT: 'p' },
    });
    expect(r.code).toBe(0);
    expect(readFileSync(out, 'utf8').trim()).toBe('u|unset');
  });

  it('passEnv: project and local lists are warned about and ignored; under allowManagedHooksOnly only the managed list counts', async () => {
    const home = dir.path('h');
    const project = dir.path('pr');
    dir.json('h/.claude/settings.json', { agentHooks: { passEnv: ['USER_VAR', 'BASH_ENV'] } });
    dir.json('pr/.claude/settings.json', { agentHooks: { passEnv: ['PROJECT_VAR'] } });
    const managed = dir.json('managed.json', { agentHooks: { passEnv: ['ADMIN_VAR'] } });
    const cfg = await loadConfig({ cwd: project, homeDir: home, managedSettingsPath: managed, unsafeSkipTrustGate: true });
    expect(cfg.options.passEnv).toEqual(['ADMIN_VAR', 'USER_VAR']);
    expect(cfg.diagnostics.map((d) => `${d.file}: ${d.path}: ${d.message}`).join('\n')).toMatch(
      /settings\.json: agentHooks\.passEnv: only honoured in user, managed and --settings files; ignored here \(it is project settings\)/,
    );
    expect(cfg.diagnostics.some((d) => d.path === 'agentHooks.passEnv[1]' && /BASH_ENV/.test(d.message))).toBe(true);
    dir.json('managed.json', { allowManagedHooksOnly: true, agentHooks: { passEnv: ['ADMIN_VAR'] } });
    const strict = await loadConfig({ cwd: project, homeDir: home, managedSettingsPath: managed, unsafeSkipTrustGate: true });
    expect(strict.options.passEnv).toEqual(['ADMIN_VAR']);
  });
});
