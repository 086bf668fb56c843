/**
 * Per-event verification (TrustOptions.events): a dispatch reads only the scripts of the event it
 * fires. Tampering with a script of another event must still be caught when that event fires and
 * be shown by `status`; any change to the config itself is seen by every event. Real files in a
 * temp dir, the real CLI for dispatch.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadFromFlags } from '../../src/load/from-flags.js';
import { evaluateTrust, loadTrustedConfig, trustWorkspace, TrustRefusedError, type TrustOptions } from '../../src/trust/index.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

let dir: TempDir;
let store: string;
let home: string;
beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli/main.js is missing: run `npm run build` first (npm test does)');
});
beforeEach(() => {
  dir = tempDir('agent-hooks-trust-events-');
  home = dir.path('home');
  mkdirSync(home);
  store = dir.path('home', '.config', 'agent-hooks', 'trust.json');
});
afterEach(() => {
  vi.unstubAllEnvs();
  dir.cleanup();
});

/** PreToolUse runs pre.sh, PostToolUse runs post.sh; both may run shared.sh when asked. */
function project(opts: { shared?: boolean } = {}) {
  const root = dir.path('proj');
  const pre = dir.write('proj/hooks/pre.sh', 'touch "$CLAUDE_PROJECT_DIR/pre-ran"\n');
  const post = dir.write('proj/hooks/post.sh', 'touch "$CLAUDE_PROJECT_DIR/post-ran"\n');
  const shared = dir.write('proj/hooks/shared.sh', 'true\n');
  const extra = opts.shared ? [{ type: 'command', command: 'sh ./hooks/shared.sh' }] : [];
  const settings = dir.json('proj/.claude/settings.json', {
    hooks: {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'sh ./hooks/pre.sh' }, ...extra] }],
      PostToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'sh ./hooks/post.sh' }, ...extra] }],
    },
  });
  return { root, pre, post, shared, settings };
}

async function assess(root: string, extra: Partial<TrustOptions> = {}) {
  const { trust } = await loadTrustedConfig(
    { cwd: root, projectDir: root, homeDir: home, managedSettingsPath: dir.path('no-managed.json') },
    { storePath: store, homeDir: home, ...extra },
  );
  return trust;
}

async function trustAll(root: string) {
  await trustWorkspace(await assess(root));
}

describe('per-event verification (library)', () => {
  it('a tampered script of another event does not stop this event, is caught when its event fires, and shows in the full assessment', async () => {
    const p = project();
    await trustAll(p.root);
    writeFileSync(p.post, 'touch "$CLAUDE_PROJECT_DIR/post-ran"; echo tampered\n');

    const pre = await assess(p.root, { events: ['PreToolUse'] });
    expect(pre.state).toBe('trusted');
    expect(pre.events).toEqual(['PreToolUse']);
    // The other event's script was not read: its trusted record stands in, marked as such.
    const postStatus = pre.scripts.find((s) => s.path === realpathSync(p.post));
    expect(postStatus).toMatchObject({ deferred: true });
    expect(postStatus?.current).toBe(postStatus?.trusted);
    expect(pre.scripts.find((s) => s.path === realpathSync(p.pre))?.deferred).toBeUndefined();

    const post = await assess(p.root, { events: ['PostToolUse'] });
    expect(post.state).toBe('modified');
    const postHook = post.hooks.find((h) => h.event === 'PostToolUse')!;
    expect(postHook.changes).toMatchObject([{ kind: 'script', script: realpathSync(p.post) }]);
    expect(post.excludedSources.map((s) => s.file)).toEqual([p.settings]);

    const full = await assess(p.root);
    expect(full.state).toBe('modified');
    expect(full.events).toBeUndefined();
    expect(full.scripts.find((s) => s.path === realpathSync(p.post))?.current).not.toBe(
      full.scripts.find((s) => s.path === realpathSync(p.post))?.trusted,
    );
  });

  it('a tampered script of the fired event is caught', async () => {
    const p = project();
    await trustAll(p.root);
    writeFileSync(p.pre, 'echo evil >&2\n');
    const r = await assess(p.root, { events: ['PreToolUse'] });
    expect(r.state).toBe('modified');
    expect(r.hooks.find((h) => h.event === 'PreToolUse')!.changes).toMatchObject([{ kind: 'script', script: realpathSync(p.pre) }]);
  });

  it('a script that hooks of both events run is read, and its change caught, whichever event fires', async () => {
    const p = project({ shared: true });
    await trustAll(p.root);
    writeFileSync(p.shared, 'echo changed\n');
    for (const event of ['PreToolUse', 'PostToolUse']) {
      const r = await assess(p.root, { events: [event] });
      expect(r.state, event).toBe('modified');
      expect(r.scripts.find((s) => s.path === realpathSync(p.shared))?.deferred).toBeUndefined();
    }
  });

  it('a config change to a hook of another event is seen by every event', async () => {
    const p = project();
    await trustAll(p.root);
    writeFileSync(
      p.settings,
      JSON.stringify({
        hooks: {
          PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'sh ./hooks/pre.sh' }] }],
          PostToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'sh ./hooks/post.sh; curl -s example.invalid' }] }],
        },
      }),
    );
    const r = await assess(p.root, { events: ['PreToolUse'] });
    expect(r.state).toBe('modified');
    expect(r.hooks.find((h) => h.event === 'PostToolUse')!.changes.map((c) => c.field)).toContain('handler.command');
  });

  it('a hook of another event added since trust is pinned and read, and makes the workspace modified', async () => {
    const p = project();
    await trustAll(p.root);
    const added = dir.write('proj/hooks/added.sh', 'true\n');
    writeFileSync(
      p.settings,
      JSON.stringify({
        hooks: {
          PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'sh ./hooks/pre.sh' }] }],
          PostToolUse: [
            {
              matcher: '*',
              hooks: [
                { type: 'command', command: 'sh ./hooks/post.sh' },
                { type: 'command', command: 'sh ./hooks/added.sh' },
              ],
            },
          ],
        },
      }),
    );
    const r = await assess(p.root, { events: ['PreToolUse'] });
    expect(r.state).toBe('modified');
    expect(r.scripts.find((s) => s.path === realpathSync(added))).toMatchObject({ current: expect.stringMatching(/^sha256:/) });
    expect(r.scripts.find((s) => s.path === realpathSync(added))?.deferred).toBeUndefined();
  });

  it('hooks of another event that moved down the list (a hook added before them) still stand in', async () => {
    const p = project();
    const post2 = dir.write('proj/hooks/post2.sh', 'true\n');
    const hooks = (pre: object[]) => ({
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: pre }],
        PostToolUse: [
          {
            matcher: '*',
            hooks: [
              { type: 'command', command: 'sh ./hooks/post.sh' },
              { type: 'command', command: 'sh ./hooks/post2.sh' },
            ],
          },
        ],
      },
    });
    writeFileSync(p.settings, JSON.stringify(hooks([{ type: 'command', command: 'sh ./hooks/pre.sh' }])));
    await trustAll(p.root);
    // Each PostToolUse hook now sits one place further in the list than in the trusted config:
    // the first where the trusted config has the second, the second past its end.
    dir.write('proj/hooks/new.sh', 'true\n');
    writeFileSync(
      p.settings,
      JSON.stringify(
        hooks([
          { type: 'command', command: 'sh ./hooks/pre.sh' },
          { type: 'command', command: 'sh ./hooks/new.sh' },
        ]),
      ),
    );
    const r = await assess(p.root, { events: ['PreToolUse'] });
    expect(r.state).toBe('modified');
    for (const file of [p.post, post2]) expect(r.scripts.find((s) => s.path === realpathSync(file))).toMatchObject({ deferred: true });
    expect(r.hooks.filter((h) => h.event === 'PostToolUse').map((h) => h.changes)).toEqual([[], []]);
  });

  it('an untrusted workspace is untrusted for every event', async () => {
    const p = project();
    const r = await assess(p.root, { events: ['PreToolUse'] });
    expect(r.state).toBe('untrusted');
    expect(r.excludedSources.map((s) => s.file)).toEqual([p.settings]);
  });

  it('a per-event report cannot be trusted: it vouches only for what it read', async () => {
    const p = project();
    await trustAll(p.root);
    writeFileSync(p.post, 'echo tampered\n');
    const partial = await assess(p.root, { events: ['PreToolUse'] });
    await expect(trustWorkspace(partial)).rejects.toThrow(TrustRefusedError);
    await expect(trustWorkspace(partial)).rejects.toThrow(/read only the scripts of PreToolUse hooks/);
    // The full assessment still says modified: nothing was trusted by the refused call.
    expect((await assess(p.root)).state).toBe('modified');
  });

  it('loadTrustedConfig and evaluateTrust with events leave out gated hooks of other events', async () => {
    const p = project();
    await trustAll(p.root);
    const { config, trust } = await loadTrustedConfig(
      { cwd: p.root, projectDir: p.root, homeDir: home, managedSettingsPath: dir.path('no-managed.json') },
      { storePath: store, homeDir: home, events: ['PreToolUse'] },
    );
    expect(trust.state).toBe('trusted');
    expect(config.hooks.map((h) => h.event)).toEqual(['PreToolUse']);
    const full = await loadTrustedConfig(
      { cwd: p.root, projectDir: p.root, homeDir: home, managedSettingsPath: dir.path('no-managed.json') },
      { storePath: store, homeDir: home },
    );
    expect(full.config.hooks.map((h) => h.event)).toEqual(['PreToolUse', 'PostToolUse']);
    const evaluated = await evaluateTrust(full.config.hooks, {
      workspaceDir: p.root,
      storePath: store,
      homeDir: home,
      events: ['PostToolUse'],
    });
    expect(evaluated.state).toBe('trusted');
    expect(evaluated.allowed.map((h) => h.event)).toEqual(['PostToolUse']);
  });

  it('the CLI loader with events drops gated hooks of other events, keeps the user hooks of any event', async () => {
    const p = project();
    dir.json('home/.claude/settings.json', { hooks: { PostToolUse: [{ hooks: [{ type: 'command', command: 'true' }] }] } });
    vi.stubEnv('HOME', home);
    vi.stubEnv('AGENT_HOOKS_TRUST_STORE', store);
    vi.stubEnv('XDG_CONFIG_HOME', '');
    await trustAll(p.root);
    const config = await loadFromFlags({ cwd: p.root, managedSettings: dir.path('no-managed.json') }, { events: ['PreToolUse'] });
    expect(config.trust?.state).toBe('trusted');
    expect(config.hooks.map((h) => `${h.source.kind} ${h.event}`).sort()).toEqual(['project PreToolUse', 'user PostToolUse']);
  });
});

describe('per-event verification through dispatch and status (CLI)', () => {
  function cli(args: string[], cwd: string, input = '') {
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, AGENT_HOOKS_TRUST_STORE: store };
    delete env.XDG_CONFIG_HOME;
    const r = spawnSync(process.execPath, [CLI, ...args], { cwd, input, encoding: 'utf8', env, timeout: 30_000 });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  }
  const payload = (cwd: string, event: string) =>
    JSON.stringify({
      session_id: 's',
      transcript_path: '',
      cwd,
      hook_event_name: event,
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      tool_response: { stdout: '' },
    });

  it('after a script of PostToolUse is tampered with, PreToolUse hooks still run, PostToolUse hooks do not, status names the script', () => {
    const p = project();
    expect(cli(['trust', '--cwd', p.root], p.root).code).toBe(0);
    const postDispatch = () => cli(['dispatch', '--agent', 'claude'], p.root, payload(p.root, 'PostToolUse'));
    expect(postDispatch().code).toBe(0);
    expect(existsSync(join(p.root, 'post-ran'))).toBe(true);

    writeFileSync(p.post, 'touch "$CLAUDE_PROJECT_DIR/post-ran"; echo tampered\n');
    const pre = cli(['dispatch', '--agent', 'claude'], p.root, payload(p.root, 'PreToolUse'));
    expect(pre.code, pre.stderr).toBe(0);
    expect(existsSync(join(p.root, 'pre-ran'))).toBe(true);
    expect(pre.stderr).not.toContain('skipped');

    rmSync(join(p.root, 'post-ran'));
    const post = postDispatch();
    expect(post.code).toBe(0);
    expect(existsSync(join(p.root, 'post-ran'))).toBe(false);
    expect(post.stderr).toMatch(/skipped \(modified/);

    const status = cli(['status', '--cwd', p.root, '--json'], p.root);
    const json = JSON.parse(status.stdout) as { state: string; hooks: Array<{ event: string; changes: Array<{ script?: string }> }> };
    expect(json.state).toBe('modified');
    expect(json.hooks.find((h) => h.event === 'PostToolUse')!.changes.map((c) => c.script)).toEqual([realpathSync(p.post)]);
  });
});
