/**
 * Real hook scripts written with agent-hooks/sdk (test/fixtures/sdk/*.mjs, importing the package
 * subpath through its own exports), spawned by the engine's command backend.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../src/config/index.js';
import { createHookEngine } from '../../src/engine/engine.js';
import { catalog, EVENT_NAMES, type EventName } from '../../src/events/catalog.js';
import type { EventSpec } from '../../src/events/spec.js';
import { outputFields } from '../../src/events/honoured.js';
import { sampleInput } from '../../src/toolkit/sample.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/sdk/', import.meta.url));
const ANY = `${FIXTURES}any-event.mjs`;
const BEHAVIOUR = `${FIXTURES}behaviour.mjs`;

beforeAll(() => {
  if (!existsSync(fileURLToPath(new URL('../../dist/sdk/index.js', import.meta.url)))) {
    throw new Error('dist/sdk/index.js is missing: run `npm run build` first (npm test does)');
  }
});

async function engineFor(hooks: Record<string, unknown>) {
  const config = await loadConfig({ cwd: FIXTURES, discover: false, settingsFiles: [JSON.stringify({ hooks })] });
  expect(config.diagnostics.filter((d) => d.level === 'error')).toEqual([]);
  return createHookEngine({ hooks: config.hooks, projectDir: FIXTURES, maxConcurrentHooks: 8 });
}

const commandHook = (script: string, ...args: string[]) => ({
  type: 'command',
  command: process.execPath,
  args: [script, ...args],
  timeout: 20,
});

describe('SDK hooks through the engine', () => {
  it('every event: the SDK accepts the input the engine sends and exits 0', async () => {
    const events = EVENT_NAMES.filter((e) => {
      const types = (catalog[e] as EventSpec).hookTypes;
      return !types || types.includes('command');
    });
    const hooks: Record<string, unknown> = {};
    for (const e of events) hooks[e] = [{ hooks: [commandHook(ANY, e)] }];
    const engine = await engineFor(hooks);
    try {
      const decisions = await Promise.all(
        events.map(
          async (event: EventName) => [event, await engine.run(event, { ...sampleInput(event), stop_hook_active: false })] as const,
        ),
      );
      for (const [event, d] of decisions) {
        expect(d.hooks, event).toHaveLength(1);
        expect(d.hooks[0], `${event}: ${d.hooks[0]?.error ?? ''}`).toMatchObject({ outcome: 'success', exitCode: 0 });
        expect(d.warnings, event).toEqual([]);
        if (outputFields(event).top.has('systemMessage')) expect(d.systemMessages, event).toEqual([`saw ${event}`]);
      }
    } finally {
      await engine.close();
    }
  });

  it('deny() denies a PreToolUse call with the reason', async () => {
    const engine = await engineFor({ PreToolUse: [{ hooks: [commandHook(BEHAVIOUR, 'PreToolUse', 'deny')] }] });
    const d = await engine.run('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'rm -rf /' } });
    expect(d).toMatchObject({ blocked: true, decision: 'deny', reason: 'no rm -rf /' });
    await engine.close();
  });

  it('rewrite() + addContext() rewrite the input and add context', async () => {
    const engine = await engineFor({ PreToolUse: [{ hooks: [commandHook(BEHAVIOUR, 'PreToolUse', 'rewrite')] }] });
    const d = await engine.run('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls', timeout: 5 } });
    expect(d.updatedInput).toEqual({ command: 'ls -la', timeout: 5 });
    expect(d.additionalContext).toEqual(['rewritten by the sdk']);
    await engine.close();
  });

  it('block() on Stop keeps the agent going', async () => {
    const engine = await engineFor({ Stop: [{ hooks: [commandHook(BEHAVIOUR, 'Stop', 'block')] }] });
    const d = await engine.run('Stop', { stop_hook_active: false });
    expect(d).toMatchObject({ blocked: true, decision: 'block', reason: 'keep going' });
    await engine.close();
  });

  it('a typo in the output is a non-blocking error naming the field: the call proceeds', async () => {
    const engine = await engineFor({ PreToolUse: [{ hooks: [commandHook(BEHAVIOUR, 'PreToolUse', 'typo')] }] });
    const d = await engine.run('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } });
    expect(d.blocked).toBe(false);
    expect(d.hooks[0]).toMatchObject({ outcome: 'non_blocking_error', exitCode: 1 });
    expect(d.hooks[0]!.error).toContain('hookSpecificOutput.permisionDecision: unknown field (did you mean "permissionDecision"?)');
    await engine.close();
  });

  it('a throwing handler is a non-blocking error with its message; failureBehavior deny makes it fail closed', async () => {
    const engine = await engineFor({
      PreToolUse: [{ hooks: [{ ...commandHook(BEHAVIOUR, 'PreToolUse', 'throw'), failureBehavior: 'deny' }] }],
    });
    const d = await engine.run('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } });
    expect(d.hooks[0]!.error).toContain('PreToolUse handler threw: handler exploded');
    expect(d).toMatchObject({ blocked: true, decision: 'deny' });
    await engine.close();
  });

  it('a handle left open by the handler does not keep the hook running', async () => {
    const engine = await engineFor({ PreToolUse: [{ hooks: [{ ...commandHook(BEHAVIOUR, 'PreToolUse', 'hang'), timeout: 15 }] }] });
    const d = await engine.run('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } });
    // Had the process waited on its interval, the engine would report a timeout instead.
    expect(d.hooks[0]).toMatchObject({ outcome: 'success', exitCode: 0 });
    expect(d.reason).toBe('done despite the timer');
    await engine.close();
  });
});
