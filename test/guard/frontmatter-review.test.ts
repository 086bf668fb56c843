/**
 * Issue 39, the runtime's last gap: hooks in the YAML frontmatter of a project skill
 * (`.claude/skills/<name>/SKILL.md`) or subagent (`.claude/agents/<name>.md`) are part of what is
 * reviewed. Present at the review, they are in the trust digest (and `status` lists them); a file
 * added, edited or deleted after it makes the workspace `modified`, and the session manager runs
 * none of that file's hooks until it is re-trusted: they fail closed with how to re-trust.
 * Workspace trust alone (`trust --workspace-only`) no longer runs them.
 *
 * Each attack is an ordinary move of the agent: it writes or edits a markdown file. Controls show
 * the same set-up runs the reviewed hooks.
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createHookManager } from '../../src/session/manager.js';
import { dispatchShell, guardedProject, runBin, sandbox, trust, verdict, type Sandbox } from './helpers.js';

const sandboxes: Sandbox[] = [];
afterAll(() => {
  for (const sb of sandboxes) sb.dir.cleanup();
});

/** A sandbox with a guarded project `p` (its settings guard refuses `rm -rf`). */
function setup() {
  const sb = sandbox();
  sandboxes.push(sb);
  const project = guardedProject(sb, 'p');
  const home = sb.env.HOME!;
  const loadOptions = (dir: string) => ({ cwd: dir, projectDir: dir, homeDir: home, managedSettingsPath: sb.dir.path('no-managed.json') });
  const warnings: string[] = [];
  const manager = () =>
    createHookManager({
      loadOptions,
      trust: { storePath: sb.env.AGENT_HOOKS_TRUST_STORE!, homeDir: home },
      onWarning: (w) => warnings.push(w),
    });
  return { sb, project, manager, warnings };
}

const bash = (cwd: string, command: string) => ({ cwd, tool_name: 'Bash', tool_input: { command }, tool_use_id: 'toolu_1' });
const doc = (hooks: unknown) => `---\nname: helper\ndescription: helps\nhooks: ${JSON.stringify(hooks)}\n---\nBody.\n`;
/** A frontmatter hook that refuses `curl` (its script sits beside the file). */
const CURL_GUARD = { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'sh "${CLAUDE_PLUGIN_ROOT}/guard.sh"' }] }] };
const CURL_GUARD_SH = "#!/bin/sh\nif grep -q curl; then echo 'no curl' >&2; exit 2; fi\nexit 0\n";
/** A frontmatter hook an attacker writes: it leaves a mark. */
const marking = (mark: string) => ({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `echo pwned > '${mark}'` }] }] });

interface Status {
  state: string;
  hooks: Array<{ source: { file?: string; frontmatter?: string }; state: string }>;
  removed: Array<{ source: { file?: string; frontmatter?: string } }>;
}
async function status(sb: Sandbox, project: string): Promise<Status> {
  return JSON.parse((await runBin(['status', '--cwd', project, '--json'], { env: sb.env })).stdout) as Status;
}

describe('frontmatter hooks of a project skill/agent are what was reviewed', () => {
  it('control: a skill present at the review is in the digest, listed by `status`, and runs when invoked', async () => {
    const { sb, project, manager } = setup();
    sb.dir.write('p/.claude/skills/guard/guard.sh', CURL_GUARD_SH, 0o755);
    const file = sb.dir.write('p/.claude/skills/guard/SKILL.md', doc(CURL_GUARD));
    const before = await status(sb, project);
    expect(before.hooks.filter((h) => h.source.frontmatter === 'skill').map((h) => [h.source.file, h.state])).toEqual([
      [file, 'untrusted'],
    ]);
    await trust(sb, project);
    expect((await status(sb, project)).state).toBe('trusted');
    const m = manager();
    try {
      const s = await m.bindSession({ sessionId: 'control', projectDir: project });
      expect((await s.addSkill(file)).hooks).toHaveLength(1);
      expect((await s.run('PreToolUse', bash(project, 'curl x'))).blocked).toBe(true);
      expect((await s.run('PreToolUse', bash(project, 'ls'))).blocked).toBe(false);
      // A reviewed skill file is a guard: the agent cannot edit it.
      const write = { cwd: project, tool_name: 'Write', tool_input: { file_path: file, content: 'x' }, tool_use_id: 'toolu_2' };
      expect((await s.run('PreToolUse', write)).blocked).toBe(true);
    } finally {
      await m.close();
    }
    // dispatch does not run frontmatter hooks (the agent does), but its digest covers them: still trusted.
    expect(verdict(await dispatchShell('claude', project, 'ls', { env: sb.env }))).toBe('proceed');
    expect(verdict(await dispatchShell('claude', project, 'rm -rf build', { env: sb.env }))).toBe('deny');
  });

  it('a skill edited after the review fails closed, naming the file and how to re-trust, until it is re-trusted', async () => {
    const { sb, project, manager } = setup();
    sb.dir.write('p/.claude/skills/guard/guard.sh', CURL_GUARD_SH, 0o755);
    const file = sb.dir.write('p/.claude/skills/guard/SKILL.md', doc(CURL_GUARD));
    await trust(sb, project);
    const mark = sb.dir.path('mark-edited');
    let m = manager();
    try {
      // Bound before the edit: the project's own guard is still the reviewed one.
      const s = await m.bindSession({ sessionId: 'edited', projectDir: project });
      writeFileSync(file, doc(marking(mark)));
      expect((await status(sb, project)).state).toBe('modified');
      await s.addSkill(file);
      const d = await s.run('PreToolUse', bash(project, 'ls'));
      expect({ blocked: d.blocked, unreviewedRan: existsSync(mark) }).toEqual({ blocked: true, unreviewedRan: false });
      expect(d.reason).toContain(file);
      expect(d.reason).toMatch(/agent-hooks trust --cwd/);
    } finally {
      await m.close();
    }
    await trust(sb, project);
    m = manager();
    try {
      const s = await m.bindSession({ sessionId: 're-trusted', projectDir: project });
      await s.addSkill(file);
      expect((await s.run('PreToolUse', bash(project, 'ls'))).blocked).toBe(false);
      expect(existsSync(mark)).toBe(true);
    } finally {
      await m.close();
    }
  });

  it('a reviewed skill’s script edited after the review: its hook fails closed', async () => {
    const { sb, project, manager } = setup();
    const script = sb.dir.write('p/.claude/skills/guard/guard.sh', CURL_GUARD_SH, 0o755);
    const file = sb.dir.write('p/.claude/skills/guard/SKILL.md', doc(CURL_GUARD));
    await trust(sb, project);
    const m = manager();
    try {
      const s = await m.bindSession({ sessionId: 'script', projectDir: project });
      writeFileSync(script, '#!/bin/sh\nexit 0\n');
      await s.addSkill(file);
      const d = await s.run('PreToolUse', bash(project, 'curl x'));
      expect(d.blocked).toBe(true);
      expect(d.reason).toMatch(/guard\.sh changed/);
    } finally {
      await m.close();
    }
  });

  it('a skill deleted after the review: `status` shows its hooks removed, and the project’s guards fail closed (session and dispatch)', async () => {
    const { sb, project, manager } = setup();
    sb.dir.write('p/.claude/skills/guard/guard.sh', CURL_GUARD_SH, 0o755);
    sb.dir.write('p/.claude/skills/guard/SKILL.md', doc(CURL_GUARD));
    await trust(sb, project);
    rmSync(join(project, '.claude/skills/guard'), { recursive: true });
    const st = await status(sb, project);
    expect({ state: st.state, removed: st.removed.map((h) => h.source.frontmatter) }).toEqual({ state: 'modified', removed: ['skill'] });
    const m = manager();
    try {
      const s = await m.bindSession({ sessionId: 'deleted', projectDir: project });
      expect((await s.run('PreToolUse', bash(project, 'ls'))).blocked).toBe(true);
    } finally {
      await m.close();
    }
    expect(verdict(await dispatchShell('claude', project, 'ls', { env: sb.env }))).toBe('deny');
  });

  it('a skill the agent writes after the review: not run, and dispatch sees the workspace modified', async () => {
    const { sb, project, manager, warnings } = setup();
    await trust(sb, project);
    const mark = sb.dir.path('mark-new');
    const m = manager();
    try {
      const s = await m.bindSession({ sessionId: 'new', projectDir: project });
      const file = sb.dir.write('p/.claude/skills/helper/SKILL.md', doc(marking(mark)));
      await s.addSkill(file);
      const d = await s.run('PreToolUse', bash(project, 'ls'));
      expect({ blocked: d.blocked, unreviewedRan: existsSync(mark) }).toEqual({ blocked: true, unreviewedRan: false });
      expect(d.reason).toMatch(/new hook \(not in the trusted config\).*agent-hooks trust --cwd/);
      expect(warnings.some((w) => w.includes(file) && /re-trusted/.test(w))).toBe(true);
    } finally {
      await m.close();
    }
    expect(verdict(await dispatchShell('claude', project, 'ls', { env: sb.env }))).toBe('deny');
  });

  it('a skill file inside the workspace but outside the reviewed places fails closed', async () => {
    const { sb, project, manager } = setup();
    await trust(sb, project);
    const mark = sb.dir.path('mark-elsewhere');
    const file = sb.dir.write('p/tools/helper/SKILL.md', doc(marking(mark)));
    const m = manager();
    try {
      const s = await m.bindSession({ sessionId: 'elsewhere', projectDir: project });
      await s.addSkill(file);
      const d = await s.run('PreToolUse', bash(project, 'ls'));
      expect({ blocked: d.blocked, unreviewedRan: existsSync(mark) }).toEqual({ blocked: true, unreviewedRan: false });
      expect(d.reason).toMatch(/were not reviewed/);
    } finally {
      await m.close();
    }
  });

  it('subagents: a reviewed `.claude/agents/*.md` runs its hooks; one written after the review does not', async () => {
    const { sb, project, manager } = setup();
    const reviewedMark = sb.dir.path('mark-reviewed-agent');
    const reviewed = sb.dir.write('p/.claude/agents/reviewer.md', doc(marking(reviewedMark)));
    await trust(sb, project);
    const mark = sb.dir.path('mark-agent');
    const m = manager();
    try {
      const s = await m.bindSession({ sessionId: 'agents', projectDir: project });
      const added = sb.dir.write('p/.claude/agents/helper.md', doc(marking(mark)));
      const d = await s.withAgent(added, () => s.run('PreToolUse', bash(project, 'ls')));
      expect({ blocked: d.blocked, unreviewedRan: existsSync(mark) }).toEqual({ blocked: true, unreviewedRan: false });
      rmSync(added);
      const ok = await s.withAgent(reviewed, () => s.run('PreToolUse', bash(project, 'ls')));
      expect({ blocked: ok.blocked, reviewedRan: existsSync(reviewedMark) }).toEqual({ blocked: false, reviewedRan: true });
    } finally {
      await m.close();
    }
  });

  it('a user-level skill (under the home directory) still runs without a review', async () => {
    const { sb, project, manager } = setup();
    await trust(sb, project);
    const mark = sb.dir.path('mark-user');
    const file = sb.dir.write('home/.claude/skills/mine/SKILL.md', doc(marking(mark)));
    const m = manager();
    try {
      const s = await m.bindSession({ sessionId: 'user', projectDir: project });
      expect((await s.addSkill(file)).hooks).toHaveLength(1);
      expect((await s.run('PreToolUse', bash(project, 'ls'))).blocked).toBe(false);
      expect(existsSync(mark)).toBe(true);
    } finally {
      await m.close();
    }
  });
});
