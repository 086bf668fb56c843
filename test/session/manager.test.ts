/**
 * Sessions, aliases, the host switch, the LRU and snapshots: one test per rule, named after it
 * (the rule is stated above each test).
 * Real settings files, real hook processes writing to real log files.
 */
import { describe, expect, it } from 'vitest';
import { realpathSync } from 'node:fs';
import { EVENT_NAMES } from '../../src/events/catalog.js';
import { emptyDecision, type Backend } from '../../src/engine/engine.js';
import { createHookManager } from '../../src/session/manager.js';
import type { HookManagerOptions } from '../../src/session/types.js';
import { appendHook, bash, lines, useSessionSandbox } from './helpers.js';

const { sb, manager } = useSessionSandbox();
const newManager = (opts: HookManagerOptions = {}) => manager({ load: sb.load, ...opts });

describe('sessions', () => {
  // `HookManager.bindSessionConfig()`: freezes a session's config and ties its source project and worktree to it
  it('bindSessionConfig freezes the session config and associates it with the source project and the worktree', async () => {
    const log = sb.dir.path('log');
    const project = sb.project('proj', {
      PreToolUse: [{ matcher: 'Bash', hooks: [appendHook(log, 'v1 $CLAUDE_PROJECT_DIR $(pwd -P)')] }],
    });
    const worktree = sb.mkdir('wt');
    const m = newManager();
    const s = await m.bindSession({ sessionId: 's1', projectDir: project, worktreeDir: worktree });

    // Frozen: the snapshot, its hooks array and every hook in it.
    expect(Object.isFrozen(s.snapshot)).toBe(true);
    expect(Object.isFrozen(s.snapshot.hooks)).toBe(true);
    expect(Object.isFrozen(s.snapshot.hooks[0])).toBe(true);
    expect(Object.isFrozen(s.snapshot.hooks[0]!.handler)).toBe(true);
    expect(Object.isFrozen(s.snapshot.config)).toBe(true);
    expect(() => (s.snapshot.hooks as unknown[]).push({})).toThrow();

    // Associated with both directories.
    expect(m.session('s1')).toBe(s);
    expect(m.session('s1', project)).toBe(s);
    expect(m.session('s1', worktree)).toBe(s);

    // A later edit of the file (and a dropped cache entry) does not reach the bound session.
    sb.project('proj', { PreToolUse: [{ matcher: 'Bash', hooks: [appendHook(log, 'v2')] }] });
    m.invalidate(project);
    await s.run('PreToolUse', bash());
    // The hook runs in the worktree, with the source project as CLAUDE_PROJECT_DIR.
    expect(lines(log)).toEqual([`v1 ${project} ${realpathSync(worktree)}`]);

    // A session bound now gets the new config; the first one is unchanged.
    const s2 = await m.bindSession({ sessionId: 's2', projectDir: project });
    await s2.run('PreToolUse', bash());
    await s.run('PreToolUse', bash());
    expect(
      lines(log)
        .slice(1)
        .map((l) => l.split(' ')[0]),
    ).toEqual(['v2', 'v1']);
  });

  // Config and host switch: hooks disabled in config, disabled for the process, or the session paused: every event returns its pass-through default and no executor runs
  describe('config disabled, process disabled or session paused: every event returns its pass-through default without calling the executor', () => {
    async function setup(policy?: Record<string, unknown>) {
      const marker = sb.dir.path('ran');
      // A command hook on every event that allows commands, plus a function hook on every event.
      const hooks: Record<string, unknown> = {};
      for (const e of EVENT_NAMES) hooks[e] = [{ hooks: [appendHook(marker, e)] }];
      const project = sb.project('proj', hooks);
      if (policy) sb.managedPolicy(policy);
      const calls: string[] = [];
      const executed: string[] = [];
      // Count executor calls for every hook type through wrapped backends.
      const spy: Backend = async (hook) => {
        executed.push(hook.id);
        return {
          status: 'completed',
          exitCode: 0,
          stdout: '',
          stderr: '',
          stdoutTruncated: false,
          stderrTruncated: false,
          stdinTruncated: false,
          durationMs: 0,
        };
      };
      const m = newManager({ engineOptions: { backends: { http: spy, prompt: spy, agent: spy, mcp_tool: spy } } });
      for (const e of EVENT_NAMES) m.register({ event: e, name: `fn-${e}`, fn: () => void calls.push(e) });
      const s = await m.bindSession({ sessionId: 's1', projectDir: project });
      const assertPassThrough = async () => {
        for (const e of EVENT_NAMES) {
          // Inputs are deliberately empty: nothing may even look at them.
          expect(await s.run(e, {})).toEqual(emptyDecision(e));
        }
        expect(calls).toEqual([]);
        expect(executed).toEqual([]);
        expect(lines(marker)).toEqual([]);
      };
      const assertRuns = async () => {
        const d = await s.run('UserPromptSubmit', { prompt: 'hi' });
        expect(d.hooks.map((h) => h.type).sort()).toEqual(policy ? ['function'] : ['command', 'function']);
        expect(calls).toEqual(['UserPromptSubmit']);
        calls.length = 0;
      };
      return { m, s, marker, assertPassThrough, assertRuns, calls };
    }

    it('config disabled (managed disableAllHooks): pass-through for every event, no executor call', async () => {
      const { s, assertPassThrough } = await setup({ disableAllHooks: true });
      expect(s.snapshot.config.disabled.all).toBe(true);
      await assertPassThrough();
    });

    it('process disabled: pass-through for every event, no executor call; re-enabled it runs again', async () => {
      const { m, assertPassThrough, assertRuns, marker } = await setup();
      m.setProcessEnabled(false);
      expect(m.processEnabled).toBe(false);
      await assertPassThrough();
      m.setProcessEnabled(true);
      await assertRuns();
      expect(lines(marker)).toEqual(['UserPromptSubmit']);
    });

    it('session paused: pass-through for every event, no executor call; resumed it runs again', async () => {
      const { s, assertPassThrough, assertRuns, marker } = await setup();
      s.pause();
      expect(s.paused).toBe(true);
      await assertPassThrough();
      s.resume();
      await assertRuns();
      expect(lines(marker)).toEqual(['UserPromptSubmit']);
    });
  });

  // A source project and its session worktree share the pause state through an alias; other sessions of the same workspace are not affected
  it('the source project and the session worktree share the pause state through aliases, but other sessions of the same workspace are unaffected', async () => {
    const log = sb.dir.path('log');
    const script = sb.dir.write(
      'sid.mjs',
      `let s = ''; for await (const c of process.stdin) s += c;
      (await import('node:fs')).appendFileSync(process.argv[2], JSON.parse(s).session_id + '\\n');`,
    );
    const project = sb.project('proj', { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'node', args: [script, log] }] }] });
    const wt1 = sb.mkdir('wt1');
    const wt2 = sb.mkdir('wt2');
    const m = newManager();
    const s1 = await m.bindSession({ sessionId: 's1', projectDir: project, worktreeDir: wt1 });
    const s2 = await m.bindSession({ sessionId: 's2', projectDir: project, worktreeDir: wt2 });

    // Pause s1 through its worktree alias: its source-project alias is paused too.
    expect(m.pause('s1', wt1)).toBe(true);
    expect(m.isPaused('s1', wt1)).toBe(true);
    expect(m.isPaused('s1', project)).toBe(true);
    expect(m.isPaused('s1')).toBe(true);
    // The other session on the same workspace (same project directory) is not.
    expect(m.isPaused('s2', project)).toBe(false);
    expect(m.isPaused('s2')).toBe(false);
    // A directory that is not an alias of s2 does not name s2.
    expect(m.pause('s2', wt1)).toBe(false);
    expect(s2.paused).toBe(false);

    await s1.run('UserPromptSubmit', { prompt: 'a' });
    await s2.run('UserPromptSubmit', { prompt: 'b' });
    expect(lines(log)).toEqual(['s2']);

    // Resume through the other alias (the source project): both aliases resume.
    expect(m.resume('s1', project)).toBe(true);
    expect(m.isPaused('s1', wt1)).toBe(false);
    await s1.run('UserPromptSubmit', { prompt: 'c' });
    expect(lines(log)).toEqual(['s2', 's1']);
  });

  // Releasing the runtime clears every alias of the session ID
  it('disposing a runtime clears all aliases by session id', async () => {
    const log = sb.dir.path('log');
    const project = sb.project('proj', { UserPromptSubmit: [{ hooks: [appendHook(log, 'ran')] }] });
    const wt = sb.mkdir('wt');
    const later = sb.mkdir('wt-later');
    const m = newManager();
    const s1 = await m.bindSession({ sessionId: 's1', projectDir: project, worktreeDir: wt });
    const other = await m.bindSession({ sessionId: 's2', projectDir: project });
    expect(m.addAlias('s1', later)).toBe(true);
    expect(m.session('s1', later)).toBe(s1);
    m.pause('s1', later);
    other.pause();

    const canon = (d: string) => realpathSync(d);
    expect(m.aliasesOf('s1').sort()).toEqual([canon(project), canon(wt), canon(later)].sort());
    expect(await m.dispose('s1')).toBe(true);
    expect(m.aliasesOf('s1')).toEqual([]);
    expect(m.aliasesOf('s2')).toEqual([canon(project)]);
    for (const dir of [undefined, project, wt, later]) {
      expect(m.session('s1', dir)).toBeUndefined();
      expect(m.pause('s1', dir)).toBe(false);
      expect(m.isPaused('s1', dir)).toBe(false);
    }
    expect(s1.disposed).toBe(true);
    await expect(s1.run('UserPromptSubmit', { prompt: 'x' })).rejects.toThrow(/disposed/);
    expect(await m.dispose('s1')).toBe(false);

    // No stale alias: a new session with the same id starts unpaused, on every directory.
    const again = await m.bindSession({ sessionId: 's1', projectDir: project, worktreeDir: wt });
    expect(again.paused).toBe(false);
    expect(m.session('s1', later)).toBeUndefined();
    await again.run('UserPromptSubmit', { prompt: 'y' });
    expect(lines(log)).toEqual(['ran']);
    // The other session of the workspace kept its own state.
    expect(m.session('s2')).toBe(other);
    expect(other.paused).toBe(true);
  });

  // The manager keeps a process-wide host switch, an LRU-bounded project-config cache and session snapshots the LRU never evicts: an active session behaves the same after its project config is evicted
  it('the process-level host switch applies to every session of every project', async () => {
    const log = sb.dir.path('log');
    const a = sb.project('a', { UserPromptSubmit: [{ hooks: [appendHook(log, 'a')] }] });
    const b = sb.project('b', { UserPromptSubmit: [{ hooks: [appendHook(log, 'b')] }] });
    const m = newManager();
    const sa = await m.bindSession({ sessionId: 'sa', projectDir: a });
    const sb2 = await m.bindSession({ sessionId: 'sb', projectDir: b });
    m.setProcessEnabled(false);
    const late = await m.bindSession({ sessionId: 'late', projectDir: a });
    for (const s of [sa, sb2, late]) expect((await s.run('UserPromptSubmit', { prompt: 'x' })).hooks).toEqual([]);
    expect(lines(log)).toEqual([]);
    // The switch is the process's, not a session's: the sessions are not paused.
    expect([sa.paused, sb2.paused, late.paused]).toEqual([false, false, false]);
    m.setProcessEnabled(true);
    for (const s of [sa, sb2, late]) await s.run('UserPromptSubmit', { prompt: 'x' });
    expect(lines(log)).toEqual(['a', 'b', 'a']);
  });

  it('an active session keeps its original behaviour even when its project config is evicted from the LRU cache', async () => {
    const log = sb.dir.path('log');
    const p1 = sb.project('p1', { UserPromptSubmit: [{ hooks: [appendHook(log, 'p1-v1')] }] });
    const p2 = sb.project('p2');
    const p3 = sb.project('p3');
    const m = newManager({ projectCacheSize: 2 });
    const s = await m.bindSession({ sessionId: 's1', projectDir: p1 });
    expect(m.cache.has(p1)).toBe(true);
    await m.projectConfig(p2);
    await m.projectConfig(p3);
    expect(m.cache.has(p1)).toBe(false); // evicted
    expect(m.cache.size).toBe(2);

    sb.project('p1', { UserPromptSubmit: [{ hooks: [appendHook(log, 'p1-v2')] }] });
    await s.run('UserPromptSubmit', { prompt: 'x' });
    expect(lines(log)).toEqual(['p1-v1']);
    expect(s.snapshot.hooks).toHaveLength(1);

    // A new session on p1 reloads (the cache missed) and sees the current file.
    const loadsBefore = sb.loads;
    const fresh = await m.bindSession({ sessionId: 's2', projectDir: p1 });
    expect(sb.loads).toBe(loadsBefore + 1);
    await fresh.run('UserPromptSubmit', { prompt: 'x' });
    await s.run('UserPromptSubmit', { prompt: 'x' });
    expect(lines(log)).toEqual(['p1-v1', 'p1-v2', 'p1-v1']);
  });

  // The project-config cache holds at most 64 entries while sessions hold their own config: a bound for a long-running serve process that leaves active sessions' snapshots as they are
  it('the project config cache is limited to 64 entries while session configs are held independently', async () => {
    const m = newManager();
    expect(m.cache.max).toBe(64);
    const dirs = Array.from({ length: 65 }, (_, i) =>
      sb.project(`p${i}`, { UserPromptSubmit: [{ hooks: [appendHook(sb.dir.path(`log${i}`), `p${i}`)] }] }),
    );
    // Session bound on the first project, then 64 more projects pass through the cache.
    const s0 = await m.bindSession({ sessionId: 's0', projectDir: dirs[0]! });
    for (const d of dirs.slice(1)) await m.projectConfig(d);
    expect(m.cache.size).toBe(64);
    expect(m.cache.has(dirs[0]!)).toBe(false);
    expect(m.cache.has(dirs[64]!)).toBe(true);
    // A cached project is not reloaded; the evicted one is.
    const before = sb.loads;
    await m.projectConfig(dirs[64]!);
    expect(sb.loads).toBe(before);
    await m.projectConfig(dirs[0]!);
    expect(sb.loads).toBe(before + 1);
    // The session still holds its own config.
    expect(s0.snapshot.hooks.map((h) => h.event)).toEqual(['UserPromptSubmit']);
    await s0.run('UserPromptSubmit', { prompt: 'x' });
    expect(lines(sb.dir.path('log0'))).toEqual(['p0']);
  });

  it('the cache size is configurable and concurrent binds of one project load it once', async () => {
    const p = sb.project('p');
    const m = newManager({ projectCacheSize: 3 });
    expect(m.cache.max).toBe(3);
    await Promise.all([1, 2, 3].map((i) => m.bindSession({ sessionId: `s${i}`, projectDir: p })));
    expect(sb.loads).toBe(1);
    expect(() => createHookManager({ projectCacheSize: 0 })).toThrow(/projectCacheSize/);
  });

  // A function hook registered without projectDir is a manager-level managed matcher for every project with hooks enabled; with projectDir it joins that project's config only
  it('a function hook registered without projectDir applies to every project; with projectDir only to that project', async () => {
    const a = sb.project('a');
    const b = sb.project('b');
    const wt = sb.mkdir('wt-a');
    const m = newManager();
    const seen: string[] = [];
    const offAll = m.register({ event: 'UserPromptSubmit', name: 'all', fn: (input) => void seen.push(`all:${String(input.session_id)}`) });
    m.register({
      event: 'UserPromptSubmit',
      name: 'only-a',
      projectDir: a,
      fn: (input) => void seen.push(`a:${String(input.session_id)}`),
    });
    const sa = await m.bindSession({ sessionId: 'sa', projectDir: a, worktreeDir: wt });
    const sb2 = await m.bindSession({ sessionId: 'sb', projectDir: b });
    await sa.run('UserPromptSubmit', { prompt: 'x' });
    await sb2.run('UserPromptSubmit', { prompt: 'x' });
    expect(seen).toEqual(['all:sa', 'a:sa', 'all:sb']);
    // Registered after binding: reaches live sessions too; unregistering removes it everywhere.
    m.register({ event: 'UserPromptSubmit', name: 'late', fn: () => void seen.push('late') });
    offAll();
    seen.length = 0;
    await sa.run('UserPromptSubmit', { prompt: 'x' });
    await sb2.run('UserPromptSubmit', { prompt: 'x' });
    expect(seen).toEqual(['a:sa', 'late', 'late']);
  });

  // A prompt hook's model and environment come from the session's frozen resources, cached per `session + project + model`; falling back to the live global model would make a resumed session behave differently
  it('prompt hooks take their model and environment from the session’s frozen resources, never the live global model', async () => {
    const p = sb.project('p', { UserPromptSubmit: [{ hooks: [{ type: 'prompt', prompt: 'judge $ARGUMENTS' }] }] });
    let liveModel = 'live-1';
    const asked: string[] = [];
    const infos: Array<{ session: string; model?: string }> = [];
    const m = newManager({
      engineOptions: (info) => {
        infos.push({ session: info.sessionId, model: info.model });
        return {
          // The real prompt backend, with a recording provider in place of a model server.
          prompt: {
            defaultModel: () => liveModel,
            provider: {
              complete: async (req) => {
                asked.push(req.model);
                return { text: '{"ok": true}' };
              },
            },
          },
        };
      },
    });
    const resumed = await m.bindSession({ sessionId: 'resumed', projectDir: p, model: 'frozen-model' });
    const fromEnv = await m.bindSession({ sessionId: 'env', projectDir: p, env: { AGENT_HOOKS_MODEL: 'env-model' } });
    const plain = await m.bindSession({ sessionId: 'plain', projectDir: p });
    await plain.run('UserPromptSubmit', { prompt: 'x' }); // no session model: the global default, read now
    liveModel = 'live-2';
    for (const s of [resumed, fromEnv, plain]) await s.run('UserPromptSubmit', { prompt: 'x' });
    // The model a session used first stays its model (session + project + model cache).
    expect(asked).toEqual(['live-1', 'frozen-model', 'env-model', 'live-1']);
    expect(infos).toEqual([
      { session: 'resumed', model: 'frozen-model' },
      { session: 'env', model: undefined },
      { session: 'plain', model: undefined },
    ]);
    expect(resumed.model).toBe('frozen-model');
    expect(Object.isFrozen(fromEnv.env)).toBe(true);
  });

  it('binding an id twice is an error; rebind moves a session to the current config explicitly', async () => {
    const log = sb.dir.path('log');
    const p = sb.project('p', { UserPromptSubmit: [{ hooks: [appendHook(log, 'v1')] }] });
    const m = newManager();
    const s = await m.bindSession({ sessionId: 's1', projectDir: p });
    await expect(m.bindSession({ sessionId: 's1', projectDir: p })).rejects.toThrow(/already bound/);
    s.pause();
    sb.project('p', { UserPromptSubmit: [{ hooks: [appendHook(log, 'v2')] }] });
    m.invalidate(p);
    const old = s.snapshot;
    expect(await m.rebind('s1')).toBe(s);
    expect(s.snapshot).not.toBe(old);
    expect(s.paused).toBe(true); // pause state survives a rebind
    s.resume();
    await s.run('UserPromptSubmit', { prompt: 'x' });
    expect(lines(log)).toEqual(['v2']);
    await expect(m.rebind('nope')).rejects.toThrow(/no bound session/);
  });

  it('a trust gate decides which hooks enter the snapshot; a failing gate lets none through', async () => {
    const log = sb.dir.path('log');
    const p = sb.project('p', {
      UserPromptSubmit: [{ hooks: [appendHook(log, 'trusted'), appendHook(log, 'untrusted')] }],
    });
    const warnings: string[] = [];
    const m = newManager({
      gate: (hooks) => ({
        allowed: hooks.filter((h) => h.handler.type === 'command' && h.handler.command.includes('"trusted"')),
        warnings: ['1 hook skipped: untrusted'],
      }),
      onWarning: (w) => warnings.push(w),
    });
    const s = await m.bindSession({ sessionId: 's1', projectDir: p });
    expect(s.snapshot.warnings).toEqual(['1 hook skipped: untrusted']);
    expect(s.snapshot.config.hooks).toHaveLength(2); // as loaded
    expect(s.snapshot.hooks).toHaveLength(1); // as admitted
    await s.run('UserPromptSubmit', { prompt: 'x' });
    expect(lines(log)).toEqual(['trusted']);
    expect(warnings).toContain('1 hook skipped: untrusted');

    const m2 = createHookManager({
      load: sb.load,
      gate: () => {
        throw new Error('store unreadable');
      },
    });
    const s2 = await m2.bindSession({ sessionId: 's2', projectDir: p });
    expect(s2.snapshot.hooks).toEqual([]);
    expect(s2.snapshot.warnings[0]).toMatch(/gate failed.*store unreadable/);
    await m2.close();
  });

  it('a failed project load is reported to the binder and not cached', async () => {
    const p = sb.project('p');
    let fail = true;
    const m = newManager({ load: (dir) => (fail ? Promise.reject(new Error('disk on fire')) : sb.load(dir)) });
    await expect(m.bindSession({ sessionId: 's1', projectDir: p })).rejects.toThrow('disk on fire');
    expect(m.session('s1')).toBeUndefined();
    fail = false;
    const s = await m.bindSession({ sessionId: 's1', projectDir: p });
    expect(s.id).toBe('s1');
  });
});
