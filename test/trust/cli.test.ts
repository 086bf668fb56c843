/**
 * The acceptance of hook trust, through the real CLI: real files, real git worktrees, a temp
 * HOME and trust store, real hook processes.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { useTempDir } from '../helpers/tmp.js';
import { git, makeProject, trustHome } from './helpers.js';

requireBuiltCli();
const dir = useTempDir('agent-hooks-trust-cli-');
let env: NodeJS.ProcessEnv;
let store: string;
beforeEach(() => {
  ({ env, store } = trustHome(dir));
});

const cli = (args: string[], input = '') => runCli(args, { input, env, timeout: 30_000 });

/** Fire UserPromptSubmit the way a hook author would: no --settings, so layers are discovered. */
function fire(cwd: string, extra: string[] = []) {
  const r = cli(['run', 'UserPromptSubmit', '--cwd', cwd, '--payload', '-', '--json', ...extra], '{"prompt":"hi"}');
  expect(r.code, r.stderr).toBe(0);
  return { context: JSON.parse(r.stdout).additionalContext as string[], stderr: r.stderr };
}

/** Fire UserPromptSubmit where a reviewed hook changed: the event fails closed (issue 39 class 4). */
function fireBlocked(cwd: string) {
  const r = cli(['run', 'UserPromptSubmit', '--cwd', cwd, '--payload', '-', '--json'], '{"prompt":"hi"}');
  expect(r.code, r.stderr).toBe(2);
  const out = JSON.parse(r.stdout) as { blocked: boolean; reason: string; additionalContext: string[] };
  expect(out.blocked).toBe(true);
  return { context: out.additionalContext, reason: out.reason, stderr: r.stderr };
}

function status(cwd: string) {
  const r = cli(['status', '--cwd', cwd, '--json']);
  return { ...r, json: JSON.parse(r.stdout) };
}

describe('agent-hooks trust / revoke / status', () => {
  it("a fresh project's hooks don't run; trusting makes them run; editing settings or script stops them", () => {
    const p = makeProject(dir);
    const real = realpathSync(p.root);

    const fresh = fire(p.root);
    expect(fresh.context).toEqual([]);
    const s0 = status(p.root).json;
    expect(s0.state).toBe('untrusted');
    expect(s0.workspace).toMatchObject({ dir: real, identity: `dir:${real}`, trusted: false });
    expect(s0.hooks).toMatchObject([{ state: 'untrusted', needsTrust: true, source: { kind: 'project', file: p.settings } }]);
    expect(fresh.stderr).toContain('warning: 1 project command hook skipped (untrusted');
    expect(fresh.stderr).toContain(`agent-hooks trust --cwd ${real} --digest ${s0.digest}`);

    const t = cli(['trust', '--cwd', p.root, '--digest', s0.digest]);
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toContain(`trusted ${real}: 1 hook(s), digest ${s0.digest}`);
    expect(fire(p.root)).toEqual({ context: ['from-project-script'], stderr: '' });

    // Edit the settings: modified, stopped, and status says what changed.
    writeFileSync(
      p.settings,
      JSON.stringify({
        hooks: {
          UserPromptSubmit: [{ matcher: '', hooks: [{ type: 'command', command: 'sh "${CLAUDE_PROJECT_DIR}/hooks/ctx.sh"; echo more' }] }],
        },
      }),
    );
    const edited = fireBlocked(p.root);
    expect(edited.context).toEqual([]);
    expect(edited.reason).toMatch(/agent-hooks trust --cwd .* --digest sha256:/);
    expect(edited.stderr).toMatch(/skipped \(modified: handler\.command: /);
    const s1 = status(p.root).json;
    expect(s1.state).toBe('modified');
    expect(s1.hooks[0].changes.map((c: { field: string }) => c.field)).toEqual(['handler.command', 'matcher']);

    // Trust the edit, then edit the script: modified again, the script named.
    expect(cli(['trust', '--cwd', p.root, '--digest', s1.digest]).code).toBe(0);
    expect(fire(p.root).context).toEqual(['from-project-script\nmore']);
    writeFileSync(p.script, 'echo tampered\n');
    const tampered = fireBlocked(p.root);
    expect(tampered.context).toEqual([]);
    expect(tampered.reason).toContain(`${realpathSync(p.script)} changed`);
    expect(tampered.stderr).toContain(`skipped (modified: script ${realpathSync(p.script)}: sha256:`);
    const human = cli(['status', '--cwd', p.root]);
    expect(human.stdout).toContain('hook trust:      modified');
    expect(human.stdout).toContain(`changed: script ${realpathSync(p.script)}: sha256:`);
  });

  it('trust refuses a digest that changed since it was shown; revoke refuses a stale digest', () => {
    const p = makeProject(dir);
    const shown = status(p.root).json.digest;
    writeFileSync(p.script, 'echo swapped after review\n');
    const refused = cli(['trust', '--cwd', p.root, '--digest', shown]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/refusing to trust .*changed since they were shown/);

    const t1 = cli(['trust', '--cwd', p.root, '--json']);
    const d1 = JSON.parse(t1.stdout).digest;
    expect(d1).not.toBe(shown);
    writeFileSync(p.script, 'echo v3\n');
    const d2 = JSON.parse(cli(['trust', '--cwd', p.root, '--json']).stdout).digest;

    const stale = cli(['revoke', '--cwd', p.root, '--digest', d1]);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/refusing to revoke .*trusted digest is sha256:\w+, not sha256:\w+/);

    const ok = cli(['revoke', '--cwd', p.root, '--digest', d2, '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ revoked: true, digest: d2 });
    expect(fire(p.root).context).toEqual([]);
  });

  it('a symlinked or group-writable store is refused with a clear error; project hooks stay off', () => {
    const p = makeProject(dir);
    mkdirSync(join(store, '..'), { recursive: true, mode: 0o700 });
    symlinkSync(dir.write('elsewhere.json', '{"version":1,"workspaces":{}}'), store);
    const t = cli(['trust', '--cwd', p.root]);
    expect(t.code).toBe(1);
    expect(t.stderr).toMatch(/trust store .*trust\.json is a symlink; refusing to use it/);
    const s = status(p.root);
    expect(s.code).toBe(1);
    expect(s.json.state).toBe('error');
    const f = fireBlocked(p.root);
    expect(f.context).toEqual([]);
    expect(f.reason).toMatch(/symlink/);
    expect(f.stderr).toMatch(/skipped \(error: trust store .* symlink.*\); fix the trust store/);

    writeFileSync(dir.path('real-store.json'), '{"version":1,"workspaces":{}}');
    env.AGENT_HOOKS_TRUST_STORE = dir.path('real-store.json');
    chmodSync(dir.path(), 0o700);
    chmodSync(dir.path('real-store.json'), 0o664);
    const g = cli(['trust', '--cwd', p.root]);
    expect(g.code).toBe(1);
    expect(g.stderr).toMatch(/group- or world-writable \(mode 0664\); refusing to use it\. Fix: chmod go-w/);
  });

  it('two worktrees of one repository share trust', () => {
    const repo = dir.path('repo');
    makeProject(dir, 'repo');
    git(repo, 'init', '-q');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'hooks');
    const wt = dir.path('wt');
    git(repo, 'worktree', 'add', '-q', wt, '-b', 'feature');
    expect(fire(wt).context).toEqual([]);
    expect(cli(['trust', '--cwd', repo]).code).toBe(0);
    expect(fire(wt).context).toEqual(['from-project-script']);
  });

  it('files and plugins named on the command line, and user settings, run without trust', () => {
    const p = makeProject(dir);
    // --settings names the project's own file: trusted by the person who named it.
    const explicit = cli(
      ['run', 'UserPromptSubmit', '--cwd', p.root, '--settings', p.settings, '--payload', '-', '--json'],
      '{"prompt":"x"}',
    );
    expect(explicit.code, explicit.stderr).toBe(0);
    expect(JSON.parse(explicit.stdout).additionalContext).toEqual(['from-project-script']);
    expect(explicit.stderr).toBe('');
    // --plugin inside the workspace, while discovering: the plugin runs, the project file does not.
    dir.json('proj/plug/hooks/hooks.json', { hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo plugin' }] }] } });
    expect(fire(p.root, ['--plugin', join(p.root, 'plug')]).context).toEqual(['plugin']);
    // User settings are the user's own.
    dir.json('home/.claude/settings.json', { hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo user' }] }] } });
    const f = fire(p.root);
    expect(f.context).toEqual(['user']);
    expect(f.stderr).toMatch(/project command hook skipped \(untrusted/);
  });

  it('list shows what is skipped and why; --workspace-only trusts the workspace but not its hooks', () => {
    const p = makeProject(dir);
    const l = cli(['list', '--cwd', p.root]);
    expect(l.stdout).toBe('no hooks\n');
    expect(l.stderr).toMatch(
      /hooks\.UserPromptSubmit\[0\]\.hooks\[0\]: project command hook skipped \(untrusted: this workspace has never been trusted\); review with `agent-hooks status/,
    );
    const w = cli(['trust', '--cwd', p.root, '--workspace-only']);
    expect(w.code, w.stderr).toBe(0);
    expect(w.stdout).toMatch(/workspace only/);
    expect(status(p.root).json).toMatchObject({
      state: 'untrusted',
      workspace: { trusted: true },
      reason: expect.stringMatching(/not been reviewed/),
    });
    expect(cli(['trust', '--cwd', p.root]).code).toBe(0);
    expect(cli(['list', '--cwd', p.root]).stdout).toMatch(/UserPromptSubmit .*ctx\.sh/);
  });
});
