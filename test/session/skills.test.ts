/**
 * Hooks in skills and agents (reference "Hooks in skills and agents"): frontmatter
 * hooks registered into a live session, `once`, CLAUDE_PLUGIN_ROOT = skill root, dedup namespaced
 * by skill root, a subagent's Stop → SubagentStop and its hooks living only while it runs.
 */
import { describe, expect, it } from 'vitest';
import { loadFrontmatterHooks, parseFrontmatter } from '../../src/config/frontmatter.js';
import type { HookManager, HookManagerOptions } from '../../src/session/types.js';
import { appendHook, bash, lines, useSessionSandbox } from './helpers.js';

const { sb, manager: newManager } = useSessionSandbox();
/** The manager of the test's last `session()` (closed after the test with the others). */
let manager: HookManager | undefined;

/** Frontmatter text with a JSON-compatible hooks value (JSON is YAML). */
function md(front: Record<string, unknown>, body = '\nBody text.\n') {
  return `---\n${Object.entries(front)
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
    .join('\n')}\n---\n${body}`;
}
function skill(name: string, hooks: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return sb.dir.write(`proj/.claude/skills/${name}/SKILL.md`, md({ name, description: `${name} skill`, hooks, ...extra }));
}
function agent(name: string, hooks: Record<string, unknown>) {
  return sb.dir.write(`proj/.claude/agents/${name}.md`, md({ name, description: `${name} agent`, hooks }));
}
async function session(settingsHooks: Record<string, unknown> = {}, extra: Record<string, unknown> = {}, opts: HookManagerOptions = {}) {
  const p = sb.project('proj', settingsHooks, extra);
  manager = newManager({ load: sb.load, ...opts });
  return manager.bindSession({ sessionId: 's1', projectDir: p });
}

describe('skill hooks', () => {
  it('a skill’s hooks are registered when it is invoked and keep running for the rest of the session', async () => {
    const log = sb.dir.path('log');
    const file = skill('secure', { PreToolUse: [{ matcher: 'Bash', hooks: [appendHook(log, 'skill')] }] });
    const s = await session();
    await s.run('PreToolUse', bash());
    expect(lines(log)).toEqual([]);
    const reg = await s.addSkill(file);
    expect(reg).toMatchObject({ name: 'secure', file, root: sb.dir.path('proj/.claude/skills/secure') });
    expect(reg.hooks[0]!.source).toMatchObject({ kind: 'skill', skillName: 'secure', skillRoot: reg.root, file });
    await s.run('PreToolUse', bash());
    await s.run('PreToolUse', bash());
    expect(lines(log)).toEqual(['skill', 'skill']);
    // Invoking it again does not register it twice.
    await s.addSkill(file);
    await s.run('PreToolUse', bash());
    expect(lines(log)).toHaveLength(3);
  });

  it('once: true runs the hook once per session, then removes it; a firing it does not match does not spend it', async () => {
    const log = sb.dir.path('log');
    const file = skill('setup', {
      PreToolUse: [{ matcher: 'Bash', hooks: [appendHook(log, 'once', { once: true }), appendHook(log, 'always')] }],
    });
    const s = await session();
    await s.addSkill(file);
    expect(s.hooks('PreToolUse')).toHaveLength(2);
    await s.run('PreToolUse', { tool_name: 'Read', tool_input: { file_path: '/x' } }); // matcher misses
    await s.run('PreToolUse', bash());
    await s.run('PreToolUse', bash());
    expect(lines(log)).toEqual(['once', 'always', 'always']);
    expect(s.hooks('PreToolUse').map((h) => h.handler.once)).toEqual([undefined]);
    // Once per session: another session runs it once too.
    const s2 = await manager!.bindSession({ sessionId: 's2', projectDir: s.projectDir });
    await s2.addSkill(file);
    await s2.run('PreToolUse', bash());
    expect(lines(log).filter((l) => l === 'once')).toHaveLength(2);
  });

  it('once: true holds under concurrent firings of a parallel event', async () => {
    const log = sb.dir.path('log');
    const file = skill('post', { PostToolUse: [{ hooks: [appendHook(log, 'once', { once: true })] }] });
    const s = await session();
    await s.addSkill(file);
    const post = { ...bash(), tool_response: { stdout: '' } };
    await Promise.all(Array.from({ length: 5 }, () => s.run('PostToolUse', post)));
    expect(lines(log)).toEqual(['once']);
  });

  it('once is spent only when the hook ran: an invalid input leaves it armed', async () => {
    const log = sb.dir.path('log');
    const file = skill('p', { UserPromptSubmit: [{ hooks: [appendHook(log, 'once', { once: true })] }] });
    const s = await session();
    await s.addSkill(file);
    await expect(s.run('UserPromptSubmit', { prompt: 42 })).rejects.toThrow(/invalid UserPromptSubmit input/);
    await s.run('UserPromptSubmit', { prompt: 'ok' });
    await s.run('UserPromptSubmit', { prompt: 'ok' });
    expect(lines(log)).toEqual(['once']);
  });

  it('a skill’s command hooks get CLAUDE_PLUGIN_ROOT = the skill root, in the environment and in ${CLAUDE_PLUGIN_ROOT}', async () => {
    const log = sb.dir.path('log');
    sb.dir.write('proj/.claude/skills/fmt/scripts/check.sh', `#!/bin/sh\necho "script:$CLAUDE_PLUGIN_ROOT" >> '${log}'\n`, 0o755);
    const file = skill('fmt', {
      PreToolUse: [
        { hooks: [{ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/scripts/check.sh' }, appendHook(log, 'env:$CLAUDE_PLUGIN_ROOT')] },
      ],
    });
    const s = await session();
    await s.addSkill(file);
    await s.run('PreToolUse', bash());
    const root = sb.dir.path('proj/.claude/skills/fmt');
    expect(lines(log).sort()).toEqual([`env:${root}`, `script:${root}`]);
  });

  it('two skills with identical commands never collapse (dedup is namespaced by skill root), nor with a settings copy', async () => {
    const log = sb.dir.path('log');
    const same = { PreToolUse: [{ matcher: 'Bash', hooks: [appendHook(log, 'root:$CLAUDE_PLUGIN_ROOT')] }] };
    const a = skill('a', same);
    const b = skill('b', same);
    // The settings copy has the same command text and no root.
    const s = await session(same);
    await s.addSkill(a);
    await s.addSkill(b);
    expect(s.hooks('PreToolUse')).toHaveLength(3);
    await s.run('PreToolUse', bash());
    expect(lines(log).sort()).toEqual([
      'root:',
      `root:${sb.dir.path('proj/.claude/skills/a')}`,
      `root:${sb.dir.path('proj/.claude/skills/b')}`,
    ]);
  });

  it('skill hooks follow the project policy: with disableAllHooks they are not registered', async () => {
    const log = sb.dir.path('log');
    const file = skill('x', { PreToolUse: [{ hooks: [appendHook(log, 'x')] }] });
    const warnings: string[] = [];
    const s = await session({}, { disableAllHooks: true }, { onWarning: (w) => warnings.push(w) });
    const reg = await s.addSkill(file);
    expect(reg.hooks).toEqual([]);
    expect(reg.warnings[0]).toMatch(/not registered.*disableAllHooks/);
    expect(warnings).toEqual(reg.warnings);
    await s.run('PreToolUse', bash());
    expect(lines(log)).toEqual([]);
  });

  it('skill hooks pass the trust gate like settings hooks', async () => {
    const log = sb.dir.path('log');
    const file = skill('x', { PreToolUse: [{ hooks: [appendHook(log, 'x')] }] });
    const gated: string[] = [];
    const s = await session(
      {},
      {},
      {
        gate: (hooks, dir) => {
          gated.push(...hooks.map((h) => `${h.source.kind}@${dir}`));
          return { allowed: [], warnings: ['untrusted skill hook'] };
        },
      },
    );
    const reg = await s.addSkill(file);
    expect(gated).toEqual([`skill@${s.projectDir}`]);
    expect(reg).toMatchObject({ hooks: [], warnings: ['untrusted skill hook'] });
    await s.run('PreToolUse', bash());
    expect(lines(log)).toEqual([]);
  });
});

describe('subagent hooks', () => {
  it('an agent’s Stop hook becomes SubagentStop and runs only while the subagent runs', async () => {
    const log = sb.dir.path('log');
    const file = agent('reviewer', {
      Stop: [{ hooks: [appendHook(log, 'agent-stop')] }],
      PreToolUse: [{ hooks: [appendHook(log, 'agent-pre')] }],
    });
    const s = await session();
    const stopInput = { stop_hook_active: false, last_assistant_message: 'done' };
    const subInput = { ...stopInput, agent_id: 'a1', agent_type: 'reviewer', agent_transcript_path: '/t' };

    const result = await s.withAgent(file, async (scope) => {
      expect(scope.name).toBe('reviewer');
      expect(scope.hooks.map((h) => h.event).sort()).toEqual(['PreToolUse', 'SubagentStop']);
      // The provenance still points at the Stop entry of the file.
      expect(scope.hooks.find((h) => h.event === 'SubagentStop')!.source.path).toBe('hooks.Stop[0].hooks[0]');
      await s.run('PreToolUse', bash());
      await s.run('Stop', stopInput); // the main agent's Stop: not the subagent's hook
      await s.run('SubagentStop', subInput);
      return 'finished';
    });
    expect(result).toBe('finished');
    expect(lines(log)).toEqual(['agent-pre', 'agent-stop']);

    // Removed when the subagent finished.
    expect(s.hooks()).toEqual([]);
    await s.run('SubagentStop', subInput);
    await s.run('PreToolUse', bash());
    expect(lines(log)).toEqual(['agent-pre', 'agent-stop']);
  });

  it('agent hooks are removed even when the subagent throws; once is ignored in agent frontmatter', async () => {
    const log = sb.dir.path('log');
    const file = agent('worker', { PreToolUse: [{ hooks: [appendHook(log, 'pre', { once: true })] }] });
    const s = await session();
    await expect(
      s.withAgent(file, async (scope) => {
        expect(scope.diagnostics).toContainEqual(expect.objectContaining({ level: 'warning', path: 'hooks.PreToolUse[0].hooks[0].once' }));
        await s.run('PreToolUse', bash());
        await s.run('PreToolUse', bash()); // once ignored: runs again
        throw new Error('subagent crashed');
      }),
    ).rejects.toThrow('subagent crashed');
    expect(lines(log)).toEqual(['pre', 'pre']);
    expect(s.hooks()).toEqual([]);
  });

  it('two overlapping runs of one agent: leaving one keeps the other’s hooks', async () => {
    const log = sb.dir.path('log');
    const file = agent('twin', { PreToolUse: [{ hooks: [appendHook(log, 'pre')] }] });
    const s = await session();
    const first = await s.enterAgent(file);
    const second = await s.enterAgent(file);
    expect(s.hooks('PreToolUse')).toHaveLength(1); // same root and command: one copy
    first.exit();
    await s.run('PreToolUse', bash());
    second.exit();
    second.exit(); // idempotent
    await s.run('PreToolUse', bash());
    expect(lines(log)).toEqual(['pre']);
  });
});

describe('frontmatter parsing', () => {
  it('reads name and hooks; a file without frontmatter or without hooks has none', async () => {
    const file = skill('n', { PreToolUse: [{ hooks: [{ type: 'command', command: 'true' }] }] }, {});
    const r = await loadFrontmatterHooks(file);
    expect(r).toMatchObject({ kind: 'skill', name: 'n', diagnostics: [] });
    expect(r.hooks).toHaveLength(1);
    const plain = sb.dir.write('plain/SKILL.md', '# Just a skill\n');
    expect(await loadFrontmatterHooks(plain)).toMatchObject({ name: 'plain', hooks: [], diagnostics: [] });
    const noHooks = sb.dir.write('agents/helper.md', '---\ndescription: helps\n---\nbody');
    expect(await loadFrontmatterHooks(noHooks)).toMatchObject({ kind: 'agent', name: 'helper', hooks: [], diagnostics: [] });
  });

  it('bad input gives path-qualified diagnostics, never a throw', async () => {
    const bad = sb.dir.write('s1/SKILL.md', '---\nname: x\nhooks:\n  PreToolUse: [\n---\n');
    const r1 = await loadFrontmatterHooks(bad);
    expect(r1.hooks).toEqual([]);
    expect(r1.diagnostics[0]).toMatchObject({ level: 'error', file: bad, path: '(frontmatter)' });
    expect(r1.diagnostics[0]!.message).toMatch(/^invalid YAML at \d+:\d+: /);

    const dup = sb.dir.write('s2/SKILL.md', '---\nname: a\nname: b\n---\n');
    expect((await loadFrontmatterHooks(dup)).diagnostics[0]!.message).toMatch(/^invalid YAML at 3:1: Map keys must be unique/);

    const typo = sb.dir.write('s3/SKILL.md', md({ hooks: { PreToolUse: [{ hooks: [{ type: 'comand', command: 'x' }] }] } }));
    const r3 = await loadFrontmatterHooks(typo);
    expect(r3.hooks).toEqual([]);
    expect(r3.diagnostics[0]).toMatchObject({ level: 'error', path: 'hooks.PreToolUse[0].hooks[0].type' });

    const event = sb.dir.write('s4/SKILL.md', md({ hooks: { PreToolUs: [] } }));
    expect((await loadFrontmatterHooks(event)).diagnostics[0]!.message).toMatch(
      /unknown event "PreToolUs" \(did you mean "PreToolUse"\?\)/,
    );

    expect(parseFrontmatter('---\nname: x\n', 'f.md').diagnostics[0]!.message).toMatch(/never closed/);
    expect(parseFrontmatter('---\n- a\n- b\n---\n', 'f.md').diagnostics[0]!.message).toMatch(/must be a mapping/);
    expect(parseFrontmatter('---\nx: *nope\n---\n', 'f.md').diagnostics[0]!.message).toMatch(/invalid YAML/);
    expect((await loadFrontmatterHooks(sb.dir.path('missing/SKILL.md'))).diagnostics[0]!.message).toMatch(/file not found/);
    expect((await loadFrontmatterHooks(sb.dir.root, { kind: 'skill' })).diagnostics[0]!.message).toMatch(/directory/);
  });

  it('a session reports a broken skill file and registers nothing from it', async () => {
    const broken = sb.dir.write('proj/.claude/skills/b/SKILL.md', '---\nhooks: [\n---\n');
    const warnings: string[] = [];
    const s = await session({}, {}, { onWarning: (w) => warnings.push(w) });
    const reg = await s.addSkill(broken);
    expect(reg.hooks).toEqual([]);
    expect(reg.diagnostics[0]!.level).toBe('error');
    expect(warnings[0]).toContain('SKILL.md: (frontmatter): invalid YAML');
  });
});
