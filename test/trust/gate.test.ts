import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHookEngine } from '../../src/engine/engine.js';
import { loadConfig } from '../../src/config/index.js';
import {
  assessTrust,
  defaultNeedsTrust,
  evaluateTrust,
  loadTrustedConfig,
  readTrustStore,
  revokeWorkspace,
  trustWorkspace,
  TrustRefusedError,
  updateTrustStore,
  type TrustOptions,
  type Workspace,
} from '../../src/trust/index.js';
import type { NormalizedHook } from '../../src/types.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';
import { failedVerification, git, makeProject } from './helpers.js';

let dir: TempDir;
let store: string;
let home: string;
beforeEach(() => {
  dir = tempDir('agent-hooks-gate-');
  store = dir.path('cfg', 'agent-hooks', 'trust.json');
  home = dir.path('home');
  mkdirSync(home);
});
afterEach(() => dir.cleanup());

/** What the CLI does without --settings: discover, gate, then run UserPromptSubmit. */
async function load(projectDir: string, extra: Partial<TrustOptions> = {}) {
  return loadTrustedConfig(
    { cwd: projectDir, projectDir, homeDir: home, managedSettingsPath: dir.path('no-managed.json') },
    { storePath: store, homeDir: home, ...extra },
  );
}

async function contextFrom(projectDir: string, hooks: readonly NormalizedHook[]): Promise<string[]> {
  const engine = createHookEngine({ hooks, projectDir, cwd: projectDir, homeDir: home });
  try {
    const d = await engine.run('UserPromptSubmit', { prompt: 'hi', session_id: 's', transcript_path: '', cwd: projectDir });
    return d.additionalContext;
  } finally {
    await engine.close();
  }
}

async function trustNow(projectDir: string, opts: { expectedDigest?: string; workspaceOnly?: boolean } = {}) {
  const { trust } = await load(projectDir);
  return trustWorkspace(trust, opts);
}

describe('hook trust through the config loader', () => {
  it("a fresh project's hooks do not run; trusting makes them run", async () => {
    const p = makeProject(dir);
    const first = await load(p.root);
    expect(first.trust.state).toBe('untrusted');
    expect(first.trust.workspaceTrusted).toBe(false);
    expect(first.trust.reason).toMatch(/never been trusted/);
    expect(first.config.hooks).toEqual([]);
    expect(first.trust.warnings).toHaveLength(1);
    expect(first.trust.warnings[0]).toContain(`${p.settings}: hooks.UserPromptSubmit[0].hooks[0]: project command hook skipped (untrusted`);
    expect(first.trust.warnings[0]).toContain(`agent-hooks trust --cwd ${realpathSync(p.root)} --digest ${first.trust.digest}`);
    expect(await contextFrom(p.root, first.config.hooks)).toEqual([]);

    await trustWorkspace(first.trust, { expectedDigest: first.trust.digest });
    const second = await load(p.root);
    expect(second.trust.state).toBe('trusted');
    expect(second.trust.warnings).toEqual([]);
    expect(second.config.hooks).toHaveLength(1);
    expect(await contextFrom(p.root, second.config.hooks)).toEqual(['from-project-script']);
  });

  it('editing the settings flips the hooks to modified and stops them; status shows the changed field', async () => {
    const p = makeProject(dir);
    await trustNow(p.root);
    writeFileSync(
      p.settings,
      JSON.stringify({
        hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'sh "${CLAUDE_PROJECT_DIR}/hooks/ctx.sh"', timeout: 5 }] }] },
      }),
    );
    const { config, trust } = await load(p.root);
    expect(trust.state).toBe('modified');
    // Reviewed, then changed: kept, failing verification (fail closed), never silently gone.
    expect((await failedVerification(config.hooks, { cwd: p.root, projectDir: p.root })).length).toBeGreaterThan(0);
    expect(trust.hooks[0]!.state).toBe('modified');
    expect(trust.hooks[0]!.changes).toEqual([{ kind: 'config', field: 'handler.timeout', after: 5 }]);
    expect(trust.warnings[0]).toMatch(/skipped \(modified: handler\.timeout: \(none\) → 5\)/);
  });

  it('editing a referenced script flips the hooks to modified, with the script named', async () => {
    const p = makeProject(dir);
    await trustNow(p.root);
    writeFileSync(p.script, 'echo changed\n');
    const { config, trust } = await load(p.root);
    expect(trust.state).toBe('modified');
    const reasons = await failedVerification(config.hooks, { cwd: p.root, projectDir: p.root });
    expect(reasons[0]).toContain(`${realpathSync(p.script)} changed`);
    expect(reasons[0]).toMatch(/agent-hooks trust --cwd .* --digest sha256:/);
    expect(trust.hooks[0]!.changes).toMatchObject([{ kind: 'script', script: realpathSync(p.script) }]);
    expect(trust.scripts).toMatchObject([{ path: realpathSync(p.script) }]);
    expect(trust.scripts[0]!.trusted).not.toBe(trust.scripts[0]!.current);
    expect(trust.warnings[0]).toMatch(/skipped \(modified: script .*ctx\.sh: sha256:\w+ → sha256:\w+\)/);
    // Putting the content back restores the trusted digest.
    writeFileSync(p.script, 'echo from-project-script\n');
    expect((await load(p.root)).trust.state).toBe('trusted');
  });

  it('creating a referenced script that was missing when trusted is a change', async () => {
    const p = makeProject(dir);
    writeFileSync(p.settings, JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: './later.sh || true' }] }] } }));
    await trustNow(p.root);
    dir.write('proj/later.sh', 'echo surprise');
    const { trust } = await load(p.root);
    expect(trust.state).toBe('modified');
    expect(trust.hooks[0]!.changes).toMatchObject([{ kind: 'script', before: 'missing' }]);
  });

  it('added, removed and moved hooks, and changed hook settings, are reported', async () => {
    const p = makeProject(dir);
    const hook = (command: string) => ({ type: 'command', command });
    writeFileSync(
      p.settings,
      JSON.stringify({ hooks: { Stop: [{ hooks: [hook('echo a'), hook('echo b')] }] }, agentHooks: { failureBehavior: 'deny' } }),
    );
    await trustNow(p.root);
    writeFileSync(
      p.settings,
      JSON.stringify({ hooks: { Stop: [{ hooks: [hook('echo b'), hook('echo c')] }] }, agentHooks: { failureBehavior: 'ignore' } }),
    );
    const { trust } = await load(p.root);
    expect(trust.state).toBe('modified');
    // 'echo b' moved from position 1 to 0; 'echo c' is new; 'echo a' is gone.
    expect(trust.hooks.map((h) => h.changes.map((c) => c.kind))).toEqual([['moved'], ['added']]);
    expect(trust.hooks[0]!.changes[0]).toMatchObject({ before: 'hooks.Stop[0].hooks[1]', after: 'hooks.Stop[0].hooks[0]' });
    expect(trust.removed).toMatchObject([{ handler: { command: 'echo a' } }]);
    expect(trust.settingsChanges).toEqual([
      { kind: 'config', field: `${realpathSync(p.settings)}: agentHooks.failureBehavior`, before: 'deny', after: 'ignore' },
    ]);
  });

  it('a hook removed since trusted is listed as removed', async () => {
    const p = makeProject(dir);
    const hook = (command: string) => ({ type: 'command', command });
    writeFileSync(p.settings, JSON.stringify({ hooks: { Stop: [{ hooks: [hook('echo a'), hook('echo b')] }] } }));
    await trustNow(p.root);
    writeFileSync(p.settings, JSON.stringify({ hooks: { Stop: [{ hooks: [hook('echo a')] }] } }));
    const { trust } = await load(p.root);
    expect(trust.state).toBe('modified');
    expect(trust.hooks[0]!.changes).toEqual([]);
    expect(trust.removed).toMatchObject([{ event: 'Stop', handler: { command: 'echo b' } }]);
  });

  it('local settings need trust too; user settings do not', async () => {
    const p = makeProject(dir);
    dir.json('proj/.claude/settings.local.json', {
      hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo local' }] }] },
    });
    dir.json('home/.claude/settings.json', { hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo user' }] }] } });
    const { config, trust } = await load(p.root);
    expect(config.hooks.map((h) => h.source.kind)).toEqual(['user']);
    expect(await contextFrom(p.root, config.hooks)).toEqual(['user']);
    expect(trust.hooks.map((h) => [h.source.kind, h.needsTrust, h.state])).toEqual([
      ['user', false, 'trusted'],
      ['project', true, 'untrusted'],
      ['local', true, 'untrusted'],
    ]);
    expect(trust.skipped.map((s) => s.hook.source.kind)).toEqual(['project', 'local']);
  });

  it("an untrusted project's copy of a user hook does not displace the user's hook", async () => {
    const p = makeProject(dir);
    const same = { hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo guard' }] }] } };
    dir.json('home/.claude/settings.json', same);
    writeFileSync(p.settings, JSON.stringify(same));
    const { config } = await load(p.root);
    expect(config.hooks.map((h) => h.source.kind)).toEqual(['user']);
    expect(await contextFrom(p.root, config.hooks)).toEqual(['guard']);
    // Without the gate before dedup the project copy would win and then be dropped.
    const plain = await loadConfig({ cwd: p.root, homeDir: home, managedSettingsPath: dir.path('none.json'), unsafeSkipTrustGate: true });
    expect(plain.hooks.map((h) => h.source.kind)).toEqual(['project']);
  });

  it("an untrusted project's hook settings (disableAllHooks, agentHooks) do not apply", async () => {
    const p = makeProject(dir);
    dir.json('home/.claude/settings.json', { hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo user' }] }] } });
    writeFileSync(p.settings, JSON.stringify({ disableAllHooks: true, agentHooks: { failureBehavior: 'deny' } }));
    const untrusted = await load(p.root);
    expect(untrusted.trust.gatedSources).toEqual([{ kind: 'project', file: p.settings }]);
    expect(untrusted.config.disabled.nonManaged).toBe(false);
    expect(untrusted.config.options).toEqual({});
    expect(untrusted.config.hooks.map((h) => h.source.kind)).toEqual(['user']);
    await trustWorkspace(untrusted.trust);
    const trusted = await load(p.root);
    expect(trusted.config.disabled.nonManaged).toBe(true);
    expect(trusted.config.options).toEqual({ failureBehavior: 'deny' });
  });

  it('a file both discovered and named on the command line: the named copy runs, the discovered one is gated', async () => {
    const p = makeProject(dir);
    const { config, trust } = await loadTrustedConfig(
      { cwd: p.root, homeDir: home, managedSettingsPath: dir.path('none.json'), settingsFiles: [p.settings] },
      { storePath: store, homeDir: home },
    );
    expect(trust.hooks.map((h) => [h.source.kind, h.needsTrust])).toEqual([
      ['project', true],
      ['cli', false],
    ]);
    expect(trust.excludedSources).toEqual([{ kind: 'project', file: p.settings }]);
    expect(config.hooks.map((h) => h.source.kind)).toEqual(['cli']);
    expect(await contextFrom(p.root, config.hooks)).toEqual(['from-project-script']);
  });

  it('trust with a digest that changed since it was shown is refused', async () => {
    const p = makeProject(dir);
    const shown = (await load(p.root)).trust.digest!;
    writeFileSync(p.script, 'echo swapped after review\n');
    const err = await trustNow(p.root, { expectedDigest: shown }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TrustRefusedError);
    expect((err as Error).message).toMatch(/changed since they were shown \(expected sha256:\w+, now sha256:\w+\)/);
    expect((await readTrustStore(store)).workspaces).toEqual({});
  });

  it('revoke with a stale digest is refused; with the trusted digest it removes the trust', async () => {
    const p = makeProject(dir);
    const first = await trustNow(p.root);
    writeFileSync(p.script, 'echo v2\n');
    const second = await trustNow(p.root);
    expect(second.digest).not.toBe(first.digest);
    const err = await revokeWorkspace({ workspaceDir: p.root, storePath: store, expectedDigest: first.digest }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TrustRefusedError);
    expect((err as Error).message).toMatch(/trust changed since it was shown/);
    expect((await load(p.root)).trust.state).toBe('trusted');
    const r = await revokeWorkspace({ workspaceDir: p.root, storePath: store, expectedDigest: second.digest });
    expect(r.removed?.hooks?.digest).toBe(second.digest);
    const after = await load(p.root);
    expect(after.trust.state).toBe('untrusted');
    expect(after.trust.workspaceTrusted).toBe(false);
    // Nothing left to revoke: a digest cannot match.
    await expect(revokeWorkspace({ workspaceDir: p.root, storePath: store, expectedDigest: second.digest })).rejects.toThrow(
      /trusted digest is none/,
    );
  });

  it('workspace trust is a separate gate: --workspace-only leaves the hooks unreviewed', async () => {
    const p = makeProject(dir);
    await trustNow(p.root, { workspaceOnly: true });
    const a = await load(p.root);
    expect(a.trust.workspaceTrusted).toBe(true);
    expect(a.trust.state).toBe('untrusted');
    expect(a.trust.reason).toMatch(/not been reviewed/);
    expect(a.config.hooks).toEqual([]);
    // A host that says the workspace is not trusted overrides a trusted digest.
    await trustNow(p.root);
    const b = await load(p.root, { workspaceTrusted: false });
    expect(b.trust.state).toBe('untrusted');
    expect(b.trust.reason).toMatch(/host has not trusted/);
    expect(b.config.hooks).toEqual([]);
  });

  it('two worktrees of one repository share trust', async () => {
    const repo = dir.path('repo');
    const p = makeProject(dir, 'repo');
    git(repo, 'init', '-q');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'hooks');
    const wt = dir.path('wt');
    git(repo, 'worktree', 'add', '-q', wt, '-b', 'other');
    await trustNow(p.root);
    const { config, trust } = await load(wt);
    expect(trust.state).toBe('trusted');
    expect(trust.workspace.identity).toBe(`git:${realpathSync(join(repo, '.git'))}`);
    expect(config.hooks).toHaveLength(1);
    expect(config.hooks[0]!.source.file).toBe(join(wt, '.claude', 'settings.json'));
    expect(await contextFrom(wt, config.hooks)).toEqual(['from-project-script']);
    // The worktree's own content still counts: editing its script there stops it there.
    writeFileSync(join(wt, 'hooks', 'ctx.sh'), 'echo branch-change\n');
    expect((await load(wt)).trust.state).toBe('modified');
    expect((await load(repo)).trust.state).toBe('trusted');
  });

  it('an unreadable referenced script puts the workspace in state error and cannot be trusted', async () => {
    const p = makeProject(dir);
    writeFileSync(p.settings, JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: './loop.sh' }] }] } }));
    symlinkSync('loop.sh', join(p.root, 'loop.sh'));
    const { config, trust } = await load(p.root);
    expect(trust.state).toBe('error');
    expect(trust.digest).toBeUndefined();
    expect(config.hooks).toEqual([]);
    expect(trust.hooks[0]!.errors[0]).toMatch(/ELOOP/);
    expect(trust.warnings[0]).toMatch(/skipped \(error: cannot read .*loop\.sh: ELOOP\); make the referenced scripts readable/);
    await expect(trustWorkspace(trust)).rejects.toThrow(/cannot trust .*ELOOP/);
  });

  it('a broken trust store fails closed: state error, project hooks fail verification, user hooks still run', async () => {
    const p = makeProject(dir);
    dir.json('home/.claude/settings.json', { hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo user' }] }] } });
    mkdirSync(join(store, '..'), { recursive: true, mode: 0o700 });
    symlinkSync(dir.write('other.json', '{"version":1,"workspaces":{}}'), store);
    const { config, trust } = await load(p.root);
    expect(trust.state).toBe('error');
    expect(trust.reason).toMatch(/is a symlink; refusing/);
    // Whether the project was reviewed cannot be read: its hooks fail closed (a store the agent
    // breaks must not take its guards away); the user's own hooks run.
    expect(config.hooks.filter((h) => !h.verify).map((h) => h.source.kind)).toEqual(['user']);
    const gated = config.hooks.filter((h) => h.verify);
    expect((await failedVerification(gated, { cwd: p.root, projectDir: p.root }))[0]).toMatch(/symlink/);
    expect(trust.warnings[0]).toMatch(/fix the trust store/);
    await expect(trustWorkspace(trust)).rejects.toThrow(/symlink/);
  });

  it('plugins inside the workspace need trust; plugins elsewhere and managed-forced plugins do not', async () => {
    const p = makeProject(dir);
    writeFileSync(p.settings, '{}');
    const pluginHooks = { hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo plugin' }] }] } };
    dir.json('proj/plugins/inside/hooks/hooks.json', pluginHooks);
    dir.json('outside/hooks/hooks.json', pluginHooks);
    const cfg = (plugins: Array<string | { root: string; managed?: boolean }>) =>
      loadTrustedConfig({ cwd: p.root, homeDir: home, managedSettingsPath: dir.path('none.json'), plugins }, { storePath: store });
    expect((await cfg([join(p.root, 'plugins', 'inside')])).config.hooks).toEqual([]);
    expect((await cfg([dir.path('outside')])).config.hooks).toHaveLength(1);
    expect((await cfg([{ root: join(p.root, 'plugins', 'inside'), managed: true }])).config.hooks).toHaveLength(1);
  });

  it('a plugin or skill in a workspace folder whose name begins with two dots needs trust too', async () => {
    const p = makeProject(dir);
    writeFileSync(p.settings, '{}');
    const pluginHooks = { hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo plugin' }] }] } };
    // `..plugins` is a folder of the workspace, not its parent: path.relative says "..plugins/p".
    dir.json('proj/..plugins/p/hooks/hooks.json', pluginHooks);
    dir.json('proj/.../p/hooks/hooks.json', pluginHooks);
    for (const root of [join(p.root, '..plugins', 'p'), join(p.root, '...', 'p')]) {
      const { config, trust } = await loadTrustedConfig(
        { cwd: p.root, homeDir: home, managedSettingsPath: dir.path('none.json'), plugins: [root] },
        { storePath: store },
      );
      expect(config.hooks).toEqual([]);
      expect(trust.hooks.map((h) => [h.source.kind, h.needsTrust, h.state])).toEqual([['plugin', true, 'untrusted']]);
    }
    expect(defaultNeedsTrust({ kind: 'skill', skillRoot: join(p.root, '..skills', 's') }, { dir: p.root, root: p.root } as Workspace)).toBe(
      true,
    );
    expect(defaultNeedsTrust({ kind: 'skill', skillRoot: join(p.root, '..', 's') }, { dir: p.root, root: p.root } as Workspace)).toBe(
      false,
    );
  });

  it('plugin hooks in a workspace keep equal digests across worktrees (root-relative paths)', async () => {
    const repo = dir.path('repo');
    mkdirSync(repo);
    dir.json('repo/plug/hooks/hooks.json', {
      hooks: { Stop: [{ hooks: [{ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/run.sh' }] }] },
    });
    dir.write('repo/plug/run.sh', 'echo');
    git(repo, 'init', '-q');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'plugin');
    git(repo, 'worktree', 'add', '-q', dir.path('wt'), '-b', 'x');
    const digest = async (root: string) =>
      (
        await loadTrustedConfig(
          { cwd: root, homeDir: home, managedSettingsPath: dir.path('none.json'), plugins: [join(root, 'plug')] },
          { storePath: store },
        )
      ).trust;
    const a = await digest(repo);
    const b = await digest(dir.path('wt'));
    expect(a.hooks[0]!.needsTrust).toBe(true);
    expect(a.digest).toBe(b.digest);
    expect(a.config!.hooks[0]!.handler.command).toBe('%ROOT%/plug/run.sh');
  });
});

describe('evaluateTrust (hooks already loaded)', () => {
  it('filters gated hooks and never gates function hooks', async () => {
    const p = makeProject(dir);
    const cfg = await loadConfig({ cwd: p.root, homeDir: home, managedSettingsPath: dir.path('none.json'), unsafeSkipTrustGate: true });
    const fn: NormalizedHook = {
      id: 'sdk:guard#0',
      event: 'UserPromptSubmit',
      handler: { type: 'function', name: 'guard', fn: () => undefined },
      source: { kind: 'sdk', path: 'guard' },
      dedupKey: 'fn',
    };
    const before = await evaluateTrust([...cfg.hooks, fn], { workspaceDir: p.root, storePath: store, homeDir: home });
    expect(before.state).toBe('untrusted');
    expect(before.allowed).toEqual([fn]);
    expect(before.states.map((s) => [s.type, s.needsTrust, s.state])).toEqual([
      ['command', true, 'untrusted'],
      ['function', false, 'trusted'],
    ]);
    expect(before.warnings).toHaveLength(1);
    await trustWorkspace(before.report);
    const after = await evaluateTrust([...cfg.hooks, fn], { workspaceDir: p.root, storePath: store, homeDir: home });
    expect(after.allowed).toHaveLength(2);
    expect(after.digest).toBe(before.digest);
    // Function hooks never enter the digest.
    expect((await assessTrust({ hooks: cfg.hooks }, { workspaceDir: p.root, storePath: store })).digest).toBe(before.digest);
  });

  it('a record written by another process is honoured (store is the source of truth)', async () => {
    const p = makeProject(dir);
    const r = await assessTrust(
      {
        hooks: (await loadConfig({ cwd: p.root, homeDir: home, managedSettingsPath: dir.path('none.json'), unsafeSkipTrustGate: true }))
          .hooks,
      },
      { workspaceDir: p.root, storePath: store },
    );
    await updateTrustStore(store, (d) => {
      d.workspaces[r.workspace.identity] = {
        path: p.root,
        workspaceTrustedAt: 'now',
        hooks: { digest: r.digest!, trustedAt: 'now', config: r.config! },
      };
    });
    expect((await load(p.root)).trust.state).toBe('trusted');
  });
});
