/** `agent-hooks doctor` on a project with each problem it looks for, through the real CLI. */
import { describe, expect, it, vi } from 'vitest';

// Each test spawns the CLI many times; on a loaded machine that takes a while.
vi.setConfig({ testTimeout: 120000 });
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findBwrap } from '../../src/util/bwrap.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { useTempDir } from '../helpers/tmp.js';

// An empty home: another agent's user file on the machine (doctor notes it) is not this test's.
const home = mkdtempSync(join(tmpdir(), 'ah-doctor-home-'));
const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(args, { env: { ...process.env, HOME: home, NO_COLOR: '1', ...env } });

requireBuiltCli();
const dir = useTempDir();

/** A PATH with only sh and cat on it: jq, python3 and friends are "missing". */
function barePath(): string {
  const bin = dir.path('bin');
  mkdirSync(bin, { recursive: true });
  for (const t of ['sh', 'cat']) symlinkSync(`/bin/${t}`, `${bin}/${t}`);
  return bin;
}

const hooksOf = (r: { stdout: string }) => JSON.parse(r.stdout).hooks as { findings: { level: string; message: string }[] }[];

describe('agent-hooks doctor', () => {
  it('finds a missing script, a non-executable one, a missing interpreter, missing tools, ms timeouts and Bash syntax under sh', () => {
    dir.write('hooks/noexec.sh', '#!/bin/sh\nexit 0\n', 0o644);
    dir.write('hooks/py-guard', '#!/usr/bin/env python3\nprint("{}")\n', 0o755);
    dir.write('hooks/uses-jq.sh', '#!/bin/sh\n# jq in a comment is not a call\ncmd=$(jq -r .tool_input.command)\n', 0o755);
    dir.write('hooks/bashy.sh', '#!/bin/sh\nif [[ -n "$1" ]]; then cat <<< "x"; fi\n', 0o755);
    dir.write('hooks/fine.sh', '#!/bin/sh\ncat >/dev/null\n', 0o755);
    const settings = dir.json('s.json', {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'command', command: '"$CLAUDE_PROJECT_DIR"/hooks/missing.sh' },
              { type: 'command', command: './hooks/noexec.sh' },
              { type: 'command', command: './hooks/py-guard' },
              { type: 'command', command: './hooks/uses-jq.sh' },
              { type: 'command', command: './hooks/bashy.sh' },
              { type: 'command', command: './hooks/fine.sh', timeout: 30000 },
              { type: 'command', command: 'cat | grep -q rm && exit 2; diff <(echo a) <(echo b)' },
              { type: 'command', command: 'python3 ./hooks/gone.py' },
              { type: 'command', command: './hooks/fine.sh --quiet' },
            ],
          },
        ],
      },
    });
    const r = cli(['doctor', '--settings', settings, '--cwd', dir.root, '--json'], { PATH: barePath() });
    expect(r.code, r.stderr).toBe(1);
    const f = hooksOf(r).map((h) => h.findings.map((x) => `${x.level}: ${x.message}`));
    expect(f[0]).toEqual([`error: script ${dir.root}/hooks/missing.sh does not exist: the hook exits 127`]);
    expect(f[1]).toEqual([`error: script ${dir.root}/hooks/noexec.sh is not executable: the hook exits 126 (chmod +x noexec.sh)`]);
    expect(f[2]).toEqual(["error: the script's interpreter python3 (from its #! line) is not on PATH: the hook exits 127"]);
    expect(f[3]).toEqual([expect.stringMatching(/^error: script uses-jq\.sh calls jq, which is not on PATH/)]);
    expect(f[4]).toEqual([
      expect.stringMatching(
        /^error: script bashy\.sh \(run by sh\) uses Bash-only syntax \(\[\[ … \]\], here-string <<<\) but runs under sh, which rejects it: .*redirection unexpected/,
      ),
    ]);
    expect(f[5]).toEqual(['warning: timeout 30000 is in seconds (8 h 20 min); if you meant milliseconds, write 30']);
    expect(f[6]).toEqual([
      expect.stringMatching(
        /^error: the command uses Bash-only syntax \(process substitution <\(…\)\) but runs under sh, which rejects it: /,
      ),
    ]);
    expect(f[7]).toEqual(
      expect.arrayContaining([
        'error: python3 is not on PATH: the hook exits 127 (command not found)',
        `error: script ${dir.root}/hooks/gone.py does not exist: the hook exits 127`,
      ]),
    );
    expect(f[8]).toEqual([]);

    const text = cli(['doctor', '--settings', settings, '--cwd', dir.root], { PATH: dir.path('bin') });
    expect(text.stdout).toMatch(/^✗ PreToolUse Bash command {2}cli .*hooks\.PreToolUse\[0\]\.hooks\[0\]$/m);
    expect(text.stdout).toMatch(/^✓ PreToolUse Bash command .*hooks\[8\]$/m);
    expect(text.stdout).toMatch(/9 hook\(s\), \d+ error\(s\), \d+ warning\(s\)\n$/);
  });

  it('a `#!/usr/bin/env -S python3 -u` script: the interpreter is python3, not the option', () => {
    dir.write('hooks/py-s', '#!/usr/bin/env -S python3 -u\nprint("{}")\n', 0o755);
    const settings = dir.json('env-s.json', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './hooks/py-s' }] }] },
    });
    const r = cli(['doctor', '--settings', settings, '--cwd', dir.root, '--json'], { PATH: barePath() });
    expect(hooksOf(r)[0]!.findings.map((x) => x.message)).toEqual([
      "the script's interpreter python3 (from its #! line) is not on PATH: the hook exits 127",
    ]);
  });

  it('a missing script run by python3 is reported with what python3 really does: exit 2, which blocks every call', () => {
    const settings = dir.json('py.json', {
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'python3 "$CLAUDE_PROJECT_DIR"/hooks/gone.py' }] }],
        PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'node "$CLAUDE_PROJECT_DIR"/hooks/gone.js' }] }],
      },
    });
    const r = cli(['doctor', '--settings', settings, '--cwd', dir.root, '--json']);
    expect(r.code, r.stderr).toBe(1);
    const [pre, post] = hooksOf(r).map((h) => h.findings.map((x) => `${x.level}: ${x.message}`));
    expect(pre).toEqual([
      `error: script ${dir.root}/hooks/gone.py does not exist: python3 exits 2 when it cannot open its script, and exit 2 blocks: every PreToolUse call this hook matches is blocked`,
    ]);
    expect(post).toEqual([
      `error: script ${dir.root}/hooks/gone.js does not exist: node exits 1 when it cannot open its script (a non-blocking error): the hook never does its job and the action proceeds`,
    ]);
    // What doctor says is what happens: the same hook blocks the call.
    const run = cli(['run', 'PreToolUse', '--settings', settings, '--cwd', dir.root]);
    expect(run.code).toBe(2);
    expect(run.stdout).toMatch(/can't open file/);
  });

  it('a clean project exits 0', () => {
    dir.write('hooks/fine.sh', '#!/bin/sh\ncat >/dev/null\n', 0o755);
    const settings = dir.json('s.json', {
      hooks: {
        Stop: [
          {
            hooks: [
              { type: 'command', command: './hooks/fine.sh', shell: 'bash' },
              { type: 'command', command: '[[ -n x ]] && echo ok', shell: 'bash' },
            ],
          },
        ],
      },
    });
    const r = cli(['doctor', '--settings', settings, '--cwd', dir.root]);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toContain('2 hook(s), 0 error(s), 0 warning(s)');
  });

  it('reports trust state and what changed since trust, and other agents’ files that are not discovered', () => {
    const home = dir.path('home');
    mkdirSync(home, { recursive: true });
    const proj = dir.path('proj');
    dir.json('proj/.claude/settings.json', { hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo one' }] }] } });
    dir.json('proj/.gemini/settings.json', { hooks: {} });
    const env = { HOME: home, XDG_CONFIG_HOME: `${home}/.config`, AGENT_HOOKS_TRUST_STORE: `${home}/trust.json` };
    const before = cli(['doctor', '--cwd', proj, '--json'], env);
    const r0 = JSON.parse(before.stdout);
    expect(r0.hooks[0].trust).toEqual({ state: 'untrusted', changes: [] });
    expect(r0.hooks[0].findings[0].message).toMatch(/^not trusted \(untrusted\): skipped until `agent-hooks trust --cwd /);
    expect(r0.dialects).toEqual([{ dialect: 'gemini', kind: 'project', file: `${proj}/.gemini/settings.json`, discovered: false }]);
    expect(before.code).toBe(0);

    const status = JSON.parse(cli(['status', '--cwd', proj, '--json'], env).stdout);
    expect(cli(['trust', '--cwd', proj, '--digest', status.digest], env).code).toBe(0);
    expect(JSON.parse(cli(['doctor', '--cwd', proj, '--json'], env).stdout).hooks[0].trust.state).toBe('trusted');
    writeFileSync(
      `${proj}/.claude/settings.json`,
      JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo two' }] }] } }),
    );
    const after = cli(['doctor', '--cwd', proj, '--discover-dialects', 'gemini'], env);
    expect(after.stdout).toMatch(/trust: modified/);
    expect(after.stdout).toMatch(/not trusted \(modified: handler\.command: "echo one" → "echo two"|not trusted \(modified: .*echo two/);
    expect(after.stdout).toContain(`✓ gemini project file ${proj}/.gemini/settings.json: discovered`);
  });

  it('config errors count as errors', () => {
    const settings = dir.json('bad.json', { hooks: { PreToolUse: [{ hooks: [{ type: 'command' }] }] } });
    const r = cli(['doctor', '--settings', settings]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${settings}: hooks.PreToolUse[0].hooks[0].command`);
  });

  it('notes NODE_EXTRA_CA_CERTS, which Node loads at the start of every dispatch; nothing when it is unset', () => {
    const settings = dir.json('s.json', { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'true' }] }] } });
    const { NODE_EXTRA_CA_CERTS: _, HOME: _home, ...without } = process.env;
    const ca = dir.write('extra-ca.pem', 'not a certificate\n');
    const set = cli(['doctor', '--settings', settings, '--json'], { ...without, NODE_EXTRA_CA_CERTS: ca });
    expect(set.code, set.stderr).toBe(0);
    const report = JSON.parse(set.stdout);
    expect(report.environment).toEqual([
      {
        level: 'info',
        message: expect.stringMatching(
          /^NODE_EXTRA_CA_CERTS is set in this environment \(.*extra-ca\.pem\): Node 20 reads its certificate stores.*`--remote`, audit and telemetry exporters/,
        ),
      },
    ]);
    // A note, not a warning: the hooks are fine.
    expect(report.warnings).toBe(0);
    const text = cli(['doctor', '--settings', settings], { ...without, NODE_EXTRA_CA_CERTS: ca });
    expect(text.stdout).toMatch(/^note: NODE_EXTRA_CA_CERTS is set .*env -u NODE_EXTRA_CA_CERTS agent-hooks dispatch/m);
    const unset = JSON.parse(runCli(['doctor', '--settings', settings, '--json'], { env: { ...without, NO_COLOR: '1' } }).stdout);
    expect(unset.environment).toEqual([]);
    // Also when the command line is wrong and nothing else is looked at.
    const broken = cli(['doctor', '--settings', settings, '--discover-dialects', 'nope', '--json'], {
      ...without,
      NODE_EXTRA_CA_CERTS: ca,
    });
    expect(broken.code).toBe(1);
    expect(JSON.parse(broken.stdout).environment).toHaveLength(1);
  });

  // Where the agent confines the model's commands but not hooks, hooks run the checked bytes by
  // default (the "view", src/config/confinement.ts); doctor warns when that cannot hold here.
  const bwrap = findBwrap() !== undefined;
  const cannotHold = bwrap ? /"sandbox": "none"/ : /install bubblewrap/;

  it('Claude Code\'s sandbox on: warns only when hooks cannot run the checked bytes (no bwrap, or the user\'s "none")', () => {
    const hooks = { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'sh hooks/guard.sh' }] }] };
    const warned = (settings: Record<string, unknown>) => {
      const file = dir.json('sandboxed.json', { ...settings, hooks });
      return JSON.parse(cli(['doctor', '--settings', file, '--cwd', dir.root, '--json']).stdout).diagnostics;
    };
    // --settings is the user's own file: its "none" keeps the view off.
    const off = warned({ sandbox: { enabled: true }, agentHooks: { sandbox: 'none' } });
    expect(off).toEqual([
      expect.objectContaining({
        level: 'warning',
        file: dir.path('sandboxed.json'),
        path: 'sandbox.enabled',
        message: expect.stringMatching(/"sandbox": "none"/),
      }),
    ]);
    expect(warned({ sandbox: { enabled: true } })).toEqual(
      bwrap ? [] : [expect.objectContaining({ path: 'sandbox.enabled', message: expect.stringMatching(cannotHold) })],
    );
    // Hooks sandboxed, the agent's sandbox off, or no command hook: nothing to say.
    for (const quiet of [
      { sandbox: { enabled: true }, agentHooks: { sandbox: 'bwrap' }, hooks },
      { sandbox: { enabled: false }, agentHooks: { sandbox: 'none' }, hooks },
      { sandbox: { enabled: true }, hooks: { PreToolUse: [{ hooks: [{ type: 'http', url: 'http://127.0.0.1:9/x' }] }] } },
    ]) {
      const file = dir.json('quiet.json', quiet);
      expect(
        JSON.parse(cli(['doctor', '--settings', file, '--cwd', dir.root, '--json']).stdout).diagnostics,
        JSON.stringify(quiet),
      ).toEqual([]);
    }
  });

  it('Codex hooks set up (Codex confines the model, not hooks): warns only when hooks cannot run the checked bytes', () => {
    const codexHome = mkdtempSync(join(tmpdir(), 'ah-doctor-codex-'));
    mkdirSync(join(codexHome, '.codex'));
    writeFileSync(
      join(codexHome, '.codex', 'hooks.json'),
      JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'agent-hooks dispatch --agent codex' }] }] } }),
    );
    const settings = dir.json('codex-s.json', { agentHooks: { sandbox: 'none' } });
    const run = () =>
      JSON.parse(cli(['doctor', '--settings', settings, '--cwd', dir.root, '--json'], { HOME: codexHome }).stdout).diagnostics;
    const warning = expect.objectContaining({
      level: 'warning',
      file: join(codexHome, '.codex', 'hooks.json'),
      message: expect.stringMatching(/^Codex sandboxes .*"sandbox": "none"/),
    });
    expect(run()).toEqual([warning]);
    writeFileSync(join(codexHome, '.codex', 'config.toml'), 'sandbox_mode = "danger-full-access"\n');
    expect(run()).toEqual([]);
    writeFileSync(join(codexHome, '.codex', 'config.toml'), 'sandbox_mode = "workspace-write"\n');
    expect(run()).toEqual([warning]);
    // The repository's own config does not silence what the user's calls for.
    mkdirSync(join(dir.root, '.codex'), { recursive: true });
    writeFileSync(join(dir.root, '.codex', 'config.toml'), 'sandbox_mode = "danger-full-access"\n');
    expect(run()).toEqual([warning]);
    rmSync(join(dir.root, '.codex'), { recursive: true });
    // Without the user's "none": the view is on at dispatch where bwrap is installed.
    dir.json('codex-s.json', {});
    expect(run()).toEqual(bwrap ? [] : [expect.objectContaining({ message: expect.stringMatching(cannotHold) })]);
    dir.json('codex-s.json', { agentHooks: { sandbox: 'bwrap' } });
    expect(run()).toEqual([]);
  });
});
