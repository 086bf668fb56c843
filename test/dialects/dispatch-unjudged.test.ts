/**
 * dispatch failing itself after the event is known (here: the hook-running module does not load,
 * as with a bundle file missing from a broken install) fails closed where a block stops the
 * guarded action, in the agent's own convention, and stays a non-blocking error where a block
 * would keep the agent going (Stop) or nothing can be blocked.
 */
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { tempDir, type TempDir } from '../helpers/tmp.js';
import { unjudgedDecision } from '../../src/reduce/reduce.js';
import { failsClosedWhenUnjudged } from '../../src/events/facts.js';
import { catalog, EVENT_NAMES } from '../../src/events/catalog.js';
import type { EventSpec } from '../../src/events/spec.js';
import { policyVerdict } from '../../src/reduce/reduce.js';

let dir: TempDir;
let settings: string;
beforeAll(() => {
  dir = tempDir();
  const hook = [{ hooks: [{ type: 'command', command: 'true' }] }];
  settings = dir.json('settings.json', { hooks: { PreToolUse: hook, UserPromptSubmit: hook, Stop: hook, PostToolUse: hook } });
});
afterAll(() => dir.cleanup());
afterEach(() => {
  vi.doUnmock('../../src/dispatch/run.js');
  vi.resetModules();
});

async function brokenDispatch() {
  vi.doMock('../../src/dispatch/run.js', () => {
    throw new Error('simulated load failure');
  });
  const { dispatch } = await import('../../src/dispatch/dispatch.js');
  return (agent: string, payload: Record<string, unknown>) =>
    dispatch({ agent, settings: [settings], discover: false }, JSON.stringify({ session_id: 's', cwd: dir.root, ...payload }));
}

const bash = { tool_name: 'Bash', tool_input: { command: 'rm -rf build' } };

it('a tool call and a prompt are denied in Claude’s convention, with the error as the reason', async () => {
  const run = await brokenDispatch();
  const pre = await run('claude', { hook_event_name: 'PreToolUse', ...bash });
  expect(pre.exitCode).toBe(0);
  expect(JSON.parse(pre.stdout)).toMatchObject({
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: expect.stringMatching(
        /^agent-hooks dispatch failed \(internal error: .+\), so the hooks for PreToolUse could not judge it; failing closed$/,
      ),
    },
  });
  expect(pre.stderr).toContain('agent-hooks dispatch: internal error:');
  const prompt = await run('claude', { hook_event_name: 'UserPromptSubmit', prompt: 'hi' });
  expect(JSON.parse(prompt.stdout)).toMatchObject({ decision: 'block', reason: expect.stringContaining('failing closed') });
});

it('Stop and PostToolUse stay non-blocking errors (exit 1): a block there would not stop an action', async () => {
  const run = await brokenDispatch();
  for (const payload of [
    { hook_event_name: 'Stop', stop_hook_active: false },
    { hook_event_name: 'PostToolUse', ...bash, tool_response: {} },
  ]) {
    const o = await run('claude', payload);
    expect([o.exitCode, o.stdout], payload.hook_event_name).toEqual([1, '']);
    expect(o.stderr).toContain('internal error');
  }
});

it('other agents get the deny in their own convention', async () => {
  const run = await brokenDispatch();
  const gemini = await run('gemini', {
    hook_event_name: 'BeforeTool',
    tool_name: 'run_shell_command',
    tool_input: { command: 'rm -rf build' },
  });
  expect(JSON.parse(gemini.stdout)).toMatchObject({ decision: 'deny', reason: expect.stringContaining('failing closed') });
  const codex = await run('codex', { hook_event_name: 'PreToolUse', ...bash, turn_id: 't', model: 'm', permission_mode: 'default' });
  expect(codex.stdout + codex.stderr).toContain('failing closed');
  expect(codex.exitCode === 2 || JSON.parse(codex.stdout).hookSpecificOutput?.permissionDecision === 'deny').toBe(true);
});

it('an unjudged event is stopped as a deny failure policy would, where running it unjudged would fail open', () => {
  const blocking = EVENT_NAMES.filter((e) => (catalog[e] as EventSpec).canBlock);
  expect(blocking.length).toBeGreaterThan(5);
  for (const e of blocking) {
    const d = unjudgedDecision(e, 'why');
    if (failsClosedWhenUnjudged(e))
      expect([d.decision, d.blocked, d.reason], e).toEqual([policyVerdict(catalog[e] as EventSpec, 'deny'), true, 'why']);
    else expect([d.decision, d.blocked, d.warnings], e).toEqual([undefined, false, ['why']]);
  }
  // Stop is let through unjudged (blocking on an error that repeats would never let the agent stop).
  expect(unjudgedDecision('Stop', 'why').blocked).toBe(false);
  expect(unjudgedDecision('PreToolUse', 'why', 'ask')).toMatchObject({ decision: 'ask', blocked: false });
  expect(unjudgedDecision('PreToolUse', 'why', 'ignore')).toMatchObject({ blocked: false, warnings: ['why'] });
});
