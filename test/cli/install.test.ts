/**
 * `agent-hooks install / uninstall / install --status` through the built CLI, for every agent:
 * the file it writes parses with that agent's reader (or, for the agents whose folders have not
 * landed, has the documented shape) and holds exactly the dispatch lines; a second run changes
 * nothing; uninstall puts the file back byte for byte; a file it cannot parse is refused; a dry
 * run writes nothing; and the installed line blocks when the CLI it names is gone.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, test } from 'vitest';
import { parseDialect } from '../../src/agents/registry.js';
import { isDialectName } from '../../src/agents/types.js';
import { INSTALL_AGENTS, installSpecOf } from '../../src/install/targets/index.js';
import { isDispatchCommand } from '../../src/util/dispatch-line.js';
import { CLI_BIN, requireBuiltCli, runCli } from '../helpers/cli.js';
import { useTempDir } from '../helpers/tmp.js';

requireBuiltCli(CLI_BIN);
const dir = useTempDir('agent-hooks-install-');

function setup() {
  const home = dir.path('home');
  const project = dir.path('project');
  const guard = dir.json('project/guard.json', {
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo "no rm here" >&2; exit 2' }] }] },
  });
  dir.write('home/.keep', '');
  const env = { PATH: process.env.PATH, HOME: home, XDG_STATE_HOME: join(home, 'state') };
  const cli = (...args: string[]) => runCli(args, { cwd: project, env, entry: CLI_BIN });
  return { home, project, guard, env, cli };
}

const scopeOf = (agent: string) => (agent === 'kimi' ? 'user' : 'project');
const targetOf = async (agent: string, s: ReturnType<typeof setup>) => {
  const t = (await installSpecOf(agent))!.target(scopeOf(agent), { projectDir: s.project, homeDir: s.home, env: {} });
  return t as string;
};

/** The commands the installed config runs, per native event. */
async function installedCommands(agent: string, target: string): Promise<Map<string, string>> {
  const spec = (await installSpecOf(agent))!;
  const out = new Map<string, string>();
  if (spec.format === 'hooks-dir') {
    for (const m of spec.events) out.set(m.native, readFileSync(join(target, m.native), 'utf8').split('\n')[2]!);
    return out;
  }
  const text = readFileSync(target, 'utf8');
  const doc = spec.format === 'toml' ? parseToml(text) : JSON.parse(text);
  if (isDialectName(agent)) {
    // The agent's own reader accepts the file.
    const r = await parseDialect(agent, doc, { file: target, kind: 'project' });
    expect(r.diagnostics.filter((d) => d.level === 'error')).toEqual([]);
    expect(r.hooks).toHaveLength(spec.events.length);
  }
  if (spec.format === 'toml')
    for (const h of (doc as { hooks: Array<{ event: string; command: string }> }).hooks) out.set(h.event, h.command);
  else
    for (const [event, list] of Object.entries(doc.hooks as Record<string, Array<Record<string, unknown>>>)) {
      const e = list[0]!;
      out.set(event, (e.command ?? e.bash ?? (e.hooks as Array<{ command: string }>)[0]!.command) as string);
    }
  return out;
}

describe.each(INSTALL_AGENTS.map((a) => [a]))('install --agent %s', (agent) => {
  test('writes exactly the dispatch lines, is idempotent, and uninstall restores the file byte for byte', async () => {
    const s = setup();
    const spec = (await installSpecOf(agent))!;
    const target = await targetOf(agent, s);
    const scope = scopeOf(agent);
    const first = s.cli('install', '--agent', agent, '--scope', scope, '--settings', 'guard.json');
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    if (spec.format === 'plugin') {
      const text = readFileSync(target, 'utf8');
      expect(text).toContain(JSON.stringify(join(process.cwd(), 'dist', 'plugins', agent === 'pi' ? 'pi.js' : 'opencode.js')));
      expect(text).toContain(JSON.stringify([s.guard]));
    } else {
      const commands = await installedCommands(agent, target);
      expect([...commands.keys()].sort()).toEqual(spec.events.map((m) => m.native).sort());
      for (const [event, c] of commands) {
        expect(isDispatchCommand(c)).toBe(true);
        expect(c).toContain(`dispatch '--agent' '${agent}'${spec.namesEvent ? ` '--event' '${event}'` : ''} '--settings' '${s.guard}'`);
      }
    }
    if (spec.format === 'hooks-dir') expect(statSync(join(target, 'PreToolUse')).mode & 0o111).not.toBe(0);
    const snapshot = readFileSync(spec.format === 'hooks-dir' ? join(target, 'PreToolUse') : target, 'utf8');
    const again = s.cli('install', '--agent', agent, '--scope', scope, '--settings', 'guard.json');
    expect([again.code, again.stdout]).toEqual([0, expect.stringContaining('already installed')]);
    expect(readFileSync(spec.format === 'hooks-dir' ? join(target, 'PreToolUse') : target, 'utf8')).toBe(snapshot);
    expect(s.cli('install', '--status', '--agent', agent).stdout).toContain(`${agent}\t${scope}\tinstalled\t${target}`);
    expect(s.cli('uninstall', '--agent', agent, '--scope', scope).code).toBe(0);
    expect(existsSync(spec.format === 'hooks-dir' ? join(target, 'PreToolUse') : target)).toBe(false);
  });
});

describe('install into a file the user already has', () => {
  const cases: Array<[string, string, string]> = [
    [
      'claude',
      '.claude/settings.json',
      '{\n    // mine\n    "model": "x",\n    "hooks": {\n        "Stop": [ {"hooks":[{"type":"command","command":"echo mine"}]} ],\n        "PreToolUse": []\n    },\n}\n',
    ],
    ['cursor', '.cursor/hooks.json', '{"version":1,"hooks":{"stop":[{"command":"echo mine"}]}}'],
    // CRLF, the user's own preToolUse beside ours, no final newline.
    [
      'cursor',
      '.cursor/hooks.json',
      '{\r\n  "version": 1,\r\n  "hooks": {\r\n    "preToolUse": [ { "command": "echo mine", "matcher": "Shell" } ],\r\n    "stop": [{"command":"echo mine"}]\r\n  }\r\n}',
    ],
    ['gemini', '.gemini/settings.json', '{}\n'],
  ];
  test.each(cases)('%s: keeps the user hooks, and uninstall restores every byte', (agent, file, text) => {
    const s = setup();
    const path = dir.write(`project/${file}`, text);
    expect(s.cli('install', '--agent', agent, '--settings', 'guard.json').code).toBe(0);
    const installed = readFileSync(path, 'utf8');
    expect(installed).toContain('echo mine'.repeat(text.includes('mine') ? 1 : 0));
    expect(s.cli('uninstall', '--agent', agent).code).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  test.each([
    ['# my config\ndefault_model = "k2"\n\n[[hooks]]\nevent = "Stop"\ncommand = "echo mine"\n'],
    // CRLF, the user's own PreToolUse beside ours, no final newline.
    ['default_model = "k2"\r\n[[hooks]]\r\nevent = "PreToolUse"\r\nmatcher = "Shell"\r\ncommand = "echo mine"'],
  ])('kimi: the [[hooks]] block goes after the user tables and comes out again (%#)', (text) => {
    const s = setup();
    const path = dir.write('home/.kimi-code/config.toml', text);
    expect(s.cli('install', '--agent', 'kimi', '--scope', 'user', '--settings', 'guard.json').code).toBe(0);
    expect(readFileSync(path, 'utf8').startsWith(text)).toBe(true);
    expect((parseToml(readFileSync(path, 'utf8')) as { hooks: unknown[] }).hooks.length).toBeGreaterThan(1);
    expect(s.cli('uninstall', '--agent', 'kimi', '--scope', 'user').code).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  test('after the user edits the file, uninstall removes only the dispatch entries', () => {
    const s = setup();
    expect(s.cli('install', '--agent', 'qwen', '--settings', 'guard.json').code).toBe(0);
    const path = join(s.project, '.qwen', 'settings.json');
    const doc = JSON.parse(readFileSync(path, 'utf8'));
    doc.hooks.Stop.unshift({ hooks: [{ type: 'command', command: 'echo added later' }] });
    dir.json('project/.qwen/settings.json', doc);
    expect(s.cli('uninstall', '--agent', 'qwen').code).toBe(0);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo added later' }] }] },
    });
  });
});

describe('refusals', () => {
  test('a file it cannot parse is not written', () => {
    const s = setup();
    const path = dir.write('project/.claude/settings.json', '{ "hooks": ');
    const r = s.cli('install', '--agent', 'claude', '--settings', 'guard.json');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${path}: cannot parse it`);
    expect(readFileSync(path, 'utf8')).toBe('{ "hooks": ');
    const toml = dir.write('home/.kimi-code/config.toml', 'x = = 1\n');
    expect(s.cli('install', '--agent', 'kimi', '--scope', 'user').code).toBe(1);
    expect(readFileSync(toml, 'utf8')).toBe('x = = 1\n');
  });

  test('a hook file of the user is not replaced (Cline), a scope the agent has not is refused (Kimi), nor a missing settings file', () => {
    const s = setup();
    dir.write('project/.clinerules/hooks/PreToolUse', '#!/bin/sh\necho mine\n');
    const r = s.cli('install', '--agent', 'cline');
    expect([r.code, r.stderr]).toEqual([1, expect.stringContaining('was not written by agent-hooks install')]);
    expect(s.cli('install', '--agent', 'kimi', '--scope', 'project').stderr).toContain('use --scope user');
    expect(s.cli('install', '--agent', 'codex', '--settings', 'nope.json').stderr).toContain('does not exist');
    expect(existsSync(join(s.project, '.codex'))).toBe(false);
  });

  test('--dry-run prints the diff and writes nothing', () => {
    const s = setup();
    const r = s.cli('install', '--agent', 'droid', '--settings', 'guard.json', '--dry-run');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`+++ ${join(s.project, '.factory', 'settings.json')}`);
    expect(r.stdout).toMatch(/^\+ +"command": "AGENT_HOOKS_CLI=/m);
    expect(existsSync(join(s.project, '.factory'))).toBe(false);
  });
});

describe('the installed line', () => {
  const payload = (cwd: string) =>
    JSON.stringify({
      session_id: 's',
      transcript_path: '',
      cwd,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf victim' },
    });
  const sh = (command: string, input: string, env: NodeJS.ProcessEnv) =>
    spawnSync('/bin/sh', ['-c', command], { input, encoding: 'utf8', env });

  test('runs the guard through dispatch, and the engine does not load it as a hook (list, trust)', async () => {
    const s = setup();
    s.cli('install', '--agent', 'claude', '--settings', 'guard.json');
    const command = (await installedCommands('claude', join(s.project, '.claude', 'settings.json'))).get('PreToolUse')!;
    const r = sh(command, payload(s.project), s.env);
    expect(JSON.parse(r.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: 'no rm here' });
    const list = s.cli('list');
    expect([list.stdout.trim().toLowerCase(), list.stderr]).toEqual(['no hooks', '']);
  });

  test.each(INSTALL_AGENTS.filter((a) => !['opencode', 'kilo', 'pi'].includes(a)).map((a) => [a]))(
    '%s: blocks when the CLI it names is gone',
    async (agent) => {
      const s = setup();
      const spec = (await installSpecOf(agent))!;
      s.cli('install', '--agent', agent, '--scope', scopeOf(agent), '--settings', 'guard.json');
      const pre = spec.events.find((m) => m.event === 'PreToolUse')!.native;
      const command = (await installedCommands(agent, await targetOf(agent, s)))
        .get(pre)!
        .replace(CLI_BIN, join(s.home, 'gone', 'bin.cjs'));
      const r = sh(command, payload(s.project), s.env);
      if (spec.blocksBy === 'cancel-json') expect([r.status, JSON.parse(r.stdout).cancel]).toEqual([0, true]);
      else expect([r.status, r.stderr]).toEqual([2, expect.stringContaining('gone/bin.cjs')]);
    },
  );
});
