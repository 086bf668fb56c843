/**
 * PreToolUse `continue: false` in the reference runtime: the tool does not run and the agent
 * stops with the hook's stopReason (a deliberate difference: Claude Code runs the tool first).
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../src/host/index.js';
import { hook, useHostSandbox } from './helpers.js';

const sb = useHostSandbox();

describe('PreToolUse continue:false', () => {
  it('stops the agent before the tool runs, with the stop reason', async () => {
    const stop = `json:${JSON.stringify({ continue: false, stopReason: 'halt: release freeze' })}`;
    sb.settings({ PreToolUse: [{ matcher: 'Write', hooks: [hook(sb.log, stop)] }] });
    const target = `${sb.ws}/should-not-exist.txt`;
    const s = await sb.session({
      model: scriptedModel([
        { toolCalls: [{ id: 't1', name: 'Write', input: { file_path: target, content: 'x' } }] },
        { text: 'more work' },
      ]),
      prompter: { confirmTool: async () => ({ behavior: 'allow' as const }) },
    });
    const turn = await s.submit('go');
    expect(existsSync(target)).toBe(false);
    expect(turn.status).toBe('stopped');
    expect(turn.reason).toContain('halt: release freeze');
    expect(sb.events()).toContain('PreToolUse');
  });

  it('a PreToolUse hook that continues lets the tool run (control)', async () => {
    sb.settings({ PreToolUse: [{ matcher: 'Write', hooks: [hook(sb.log, '')] }] });
    const target = `${sb.ws}/written.txt`;
    const s = await sb.session({
      model: scriptedModel([{ toolCalls: [{ id: 't1', name: 'Write', input: { file_path: target, content: 'x' } }] }, { text: 'done' }]),
      prompter: { confirmTool: async () => ({ behavior: 'allow' as const }) },
    });
    const turn = await s.submit('go');
    expect(existsSync(target)).toBe(true);
    expect(turn.status).toBe('completed');
  });
});
