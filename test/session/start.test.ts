/**
 * SessionStart can block start-up or add environment; that environment is frozen and bound to the
 * hook executor before LSP and stdio MCP servers start, so a config change after start-up does not
 * reach those child processes. Real SessionStart hooks write CLAUDE_ENV_FILE and real later hooks
 * read their environment.
 */
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { appendHook, bash, lines, useSessionSandbox } from './helpers.js';

const { sb, manager: newManager } = useSessionSandbox();

/** SessionStart (matcher `startup`) exports STAGE=<stage>; PreToolUse logs what it sees. */
function project(log: string, stage: string) {
  return sb.project('proj', {
    SessionStart: [
      {
        matcher: 'startup',
        hooks: [
          {
            type: 'command',
            command: `echo 'export STAGE=${stage}' >> "$CLAUDE_ENV_FILE"; echo "export WITH_SPACE='a b'" >> "$CLAUDE_ENV_FILE"`,
          },
        ],
      },
    ],
    PreToolUse: [{ matcher: 'Bash', hooks: [appendHook(log, '${STAGE:-unset}|${WITH_SPACE:-unset}|${BASE:-unset}')] }],
  });
}

describe('SessionStart may block initialisation or add environment, frozen before any later subprocess', () => {
  it('SessionStart adds environment: session.env (for the tools) exposes it frozen; later hooks do not see it, as in Claude Code', async () => {
    const log = sb.dir.path('log');
    const p = project(log, 'one');
    const m = newManager({ load: sb.load });
    const r = await m.startSession({ sessionId: 's1', projectDir: p, env: { BASE: 'host' } });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.decision.eventOutput.env).toEqual({ STAGE: 'one', WITH_SPACE: 'a b' });
    expect(r.session.env).toEqual({ BASE: 'host', STAGE: 'one', WITH_SPACE: 'a b' });
    expect(Object.isFrozen(r.session.env)).toBe(true);
    await r.session.run('PreToolUse', bash());
    // Claude Code 2.1.328: CLAUDE_ENV_FILE exports reach later Bash commands, not later hooks.
    expect(lines(log)).toEqual(['unset|unset|host']);
    expect(m.session('s1')).toBe(r.session);
  });

  it('the SessionStart environment is not visible to other sessions of the same workspace', async () => {
    const log = sb.dir.path('log');
    const p = project(log, 'one');
    const m = newManager({ load: sb.load });
    const started = await m.startSession({ sessionId: 'started', projectDir: p });
    // Same workspace, resumed (the startup matcher does not fire) and plainly bound sessions.
    const resumed = await m.startSession({ sessionId: 'resumed', projectDir: p, source: 'resume' });
    const bound = await m.bindSession({ sessionId: 'bound', projectDir: p });
    expect(started.ok && resumed.ok).toBe(true);
    if (!started.ok || !resumed.ok) return;
    await bound.run('PreToolUse', bash());
    await resumed.session.run('PreToolUse', bash());
    await started.session.run('PreToolUse', bash());
    expect(lines(log)).toEqual(['unset|unset|unset', 'unset|unset|unset', 'unset|unset|unset']);
    expect(started.session.env).toEqual({ STAGE: 'one', WITH_SPACE: 'a b' });
    expect(resumed.session.env).toEqual({});
  });

  it('the environment is frozen at start: a later config change (even after rebind) does not alter it', async () => {
    const log = sb.dir.path('log');
    const p = project(log, 'one');
    const m = newManager({ load: sb.load });
    const r = await m.startSession({ sessionId: 's1', projectDir: p });
    if (!r.ok) throw new Error('refused');
    project(log, 'two');
    m.invalidate(p);
    await m.rebind('s1');
    // A later SessionStart (e.g. after /clear) reports its env, but the session env stays.
    const again = await r.session.run('SessionStart', { source: 'startup' });
    expect(again.eventOutput.env).toEqual({ STAGE: 'two', WITH_SPACE: 'a b' });
    expect(r.session.env.STAGE).toBe('one');
    await r.session.run('PreToolUse', bash());
    expect(lines(log)).toEqual(['unset|unset|unset']);
    // A session started now gets the new value.
    const fresh = await m.startSession({ sessionId: 's2', projectDir: p });
    expect(fresh.ok && fresh.session.env.STAGE).toBe('two');
  });

  it('SessionStart blocks initialisation with continue:false: the session is refused with the stop reason and not bound', async () => {
    const log = sb.dir.path('log');
    const p = sb.project('proj', {
      SessionStart: [{ hooks: [{ type: 'command', command: `printf '%s' '{"continue":false,"stopReason":"repository is locked"}'` }] }],
      PreToolUse: [{ hooks: [appendHook(log, 'ran')] }],
    });
    const m = newManager({ load: sb.load });
    const r = await m.startSession({ sessionId: 's1', projectDir: p, worktreeDir: sb.mkdir('wt') });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.reason).toBe('repository is locked');
    expect(r.decision.continue).toBe(false);
    expect(m.session('s1')).toBeUndefined();
    expect(m.session('s1', p)).toBeUndefined();
    expect(m.sessions()).toEqual([]);
    // The id is free again.
    const s = await m.bindSession({ sessionId: 's1', projectDir: sb.mkdir('elsewhere') });
    expect(s.id).toBe('s1');
  });

  it('an ordinary SessionStart failure (exit 1, exit 2) does not block initialisation', async () => {
    const p = sb.project('proj', {
      SessionStart: [
        {
          hooks: [
            { type: 'command', command: 'echo broken >&2; exit 1' },
            { type: 'command', command: 'echo nope >&2; exit 2' },
          ],
        },
      ],
    });
    const m = newManager({ load: sb.load });
    const r = await m.startSession({ sessionId: 's1', projectDir: p });
    expect(r.ok).toBe(true);
  });

  it('a paused or disabled process starts sessions without running SessionStart', async () => {
    const log = sb.dir.path('log');
    const p = sb.project('proj', { SessionStart: [{ hooks: [appendHook(log, 'start')] }] });
    const m = newManager({ load: sb.load });
    m.setProcessEnabled(false);
    const r = await m.startSession({ sessionId: 's1', projectDir: p });
    expect(r.ok).toBe(true);
    expect(lines(log)).toEqual([]);
  });
});

describe('a SessionStart hook that declares itself async on its first stdout line', () => {
  it('does not hold start-up: the session starts, and the hook’s later context comes through onAsyncResult', async () => {
    const later = JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'warmed up' } });
    // Waits (at most ~10 s) for `go`, which the test writes only once startSession returned.
    const wait = `i=0; while [ ! -e go ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done`;
    const p = sb.project('proj', {
      SessionStart: [
        { hooks: [{ type: 'command', command: `echo '{"async":true}'; ${wait}; [ -e go ] && printf '%s\\n' '${later}'`, timeout: 30 }] },
      ],
    });
    const contexts: (string | undefined)[] = [];
    const m = newManager({ load: sb.load, engineOptions: { onAsyncResult: (r) => contexts.push(r.additionalContext) } });
    const r = await m.startSession({ sessionId: 's1', projectDir: p });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.decision.additionalContext).toEqual([]);
    writeFileSync(`${p}/go`, '');
    await r.session.drain();
    expect(contexts).toEqual(['warmed up']);
  });
});
