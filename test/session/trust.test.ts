/**
 * Sessions with hook trust (src/trust): only allowed hooks enter a session's snapshot, the skip
 * warnings are kept, and trusting later changes new sessions, never a bound one. Real trust store
 * in a temp dir, real hook processes.
 */
import { describe, expect, it } from 'vitest';
import { loadTrustedConfig, trustWorkspace } from '../../src/trust/index.js';
import { createHookManager } from '../../src/session/manager.js';
import { appendHook, lines, useSessionSandbox } from './helpers.js';

const { sb, manager: newManager } = useSessionSandbox();

describe('sessions with hook trust', () => {
  it('untrusted project hooks stay out of the snapshot with a warning; trusting affects new sessions only', async () => {
    const log = sb.dir.path('log');
    const store = sb.dir.path('trust.json');
    const project = sb.project('proj', { UserPromptSubmit: [{ hooks: [appendHook(log, 'project')] }] });
    sb.dir.json('home/.claude/settings.json', { hooks: { UserPromptSubmit: [{ hooks: [appendHook(log, 'user')] }] } });
    const loadOptions = (dir: string) => ({
      cwd: dir,
      projectDir: dir,
      homeDir: sb.home,
      managedSettingsPath: sb.dir.path('no-managed.json'),
    });
    const warnings: string[] = [];
    const m = newManager({
      loadOptions,
      trust: { storePath: store, homeDir: sb.home },
      onWarning: (w) => warnings.push(w),
    });

    const before = await m.bindSession({ sessionId: 'before', projectDir: project });
    expect(before.snapshot.trust?.state).toBe('untrusted');
    expect(before.snapshot.hooks.map((h) => h.source.kind)).toEqual(['user']);
    expect(before.snapshot.warnings).toHaveLength(1);
    expect(before.snapshot.warnings[0]).toMatch(/project command hook skipped \(untrusted/);
    expect(warnings).toEqual(before.snapshot.warnings);
    await before.run('UserPromptSubmit', { prompt: 'x' });
    expect(lines(log)).toEqual(['user']);

    // Trust what is there now (as `agent-hooks trust` would), then drop the cached config.
    const { trust } = await loadTrustedConfig(loadOptions(project), { storePath: store, homeDir: sb.home });
    await trustWorkspace(trust, { expectedDigest: trust.digest });
    m.invalidate(project);

    const after = await m.bindSession({ sessionId: 'after', projectDir: project });
    expect(after.snapshot.trust?.state).toBe('trusted');
    // UserPromptSubmit hooks run in parallel: compare what each firing appended, not the order.
    await after.run('UserPromptSubmit', { prompt: 'x' });
    expect(lines(log).slice(1).sort()).toEqual(['project', 'user']);
    await before.run('UserPromptSubmit', { prompt: 'x' });
    expect(lines(log).slice(3)).toEqual(['user']);
  });

  it('skill hooks from inside the workspace need the review (workspace trust alone is not enough); skills outside it do not', async () => {
    const log = sb.dir.path('log');
    const store = sb.dir.path('trust.json');
    const project = sb.project('proj');
    const inside = sb.dir.write(
      'proj/.claude/skills/in/SKILL.md',
      `---\nhooks: ${JSON.stringify({ UserPromptSubmit: [{ hooks: [appendHook(log, 'inside')] }] })}\n---\n`,
    );
    const outside = sb.dir.write(
      'home/.claude/skills/out/SKILL.md',
      `---\nhooks: ${JSON.stringify({ UserPromptSubmit: [{ hooks: [appendHook(log, 'outside')] }] })}\n---\n`,
    );
    const loadOptions = (dir: string) => ({
      cwd: dir,
      projectDir: dir,
      homeDir: sb.home,
      managedSettingsPath: sb.dir.path('no-managed.json'),
    });
    const m = newManager({ loadOptions, trust: { storePath: store, homeDir: sb.home } });
    const s = await m.bindSession({ sessionId: 's', projectDir: project });

    const denied = await s.addSkill(inside);
    expect(denied.hooks).toEqual([]);
    expect(denied.warnings[0]).toMatch(/skill command hook skipped \(this workspace has never been trusted\); review and trust/);
    expect((await s.addSkill(outside)).hooks).toHaveLength(1);
    await s.run('UserPromptSubmit', { prompt: 'x' });
    expect(lines(log)).toEqual(['outside']);

    // Trust is read when the skill is invoked. Workspace trust alone does not run a project
    // skill's hooks: they are part of what is reviewed (docs/security.md).
    const { trust } = await loadTrustedConfig(loadOptions(project), { storePath: store, homeDir: sb.home });
    await trustWorkspace(trust, { workspaceOnly: true });
    const s2 = await m.bindSession({ sessionId: 's2', projectDir: project });
    const unreviewed = await s2.addSkill(inside);
    expect(unreviewed.hooks).toEqual([]);
    expect(unreviewed.warnings[0]).toMatch(/hook skipped \(this workspace's hooks have not been reviewed and trusted\)/);
    await trustWorkspace(trust);
    const s3 = await m.bindSession({ sessionId: 's3', projectDir: project });
    expect((await s3.addSkill(inside)).hooks).toHaveLength(1);
    await s3.run('UserPromptSubmit', { prompt: 'x' });
    expect(lines(log)).toEqual(['outside', 'inside']);
  });

  it('`load` cannot be combined with `trust` (the built-in loader is what gates)', () => {
    expect(() => createHookManager({ load: sb.load, trust: {} })).toThrow(/loadOptions.*trust/);
  });
});
