/**
 * Adversarial data in both directions: hook output carrying `__proto__` and friends, and
 * event payloads with huge strings, deep nesting, `__proto__` keys and wrong types.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EVENT_NAMES, InvalidHookInputError, type EventName } from '../../src/index.js';
// The untyped engine: adversarial payloads that the typed run() would not let compile.
import { createHookEngine } from '../../src/engine/engine.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';
import { bash, engineFor, expectNoLeak, expectPrototypeClean, loadSettings, newTag, prepareFixtures, writeSettings } from './helpers.js';

let dir: TempDir;
let tag: string;
beforeAll(() => prepareFixtures());
beforeEach(() => {
  dir = tempDir('agent-hooks-hardening-');
  tag = newTag();
});
afterEach(async () => {
  await expectNoLeak(tag);
  expectPrototypeClean();
  dir.cleanup();
});

const PROTO_OUTPUT =
  '{"__proto__":{"continue":false,"decision":"block","polluted":true},' +
  '"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"real reason",' +
  '"__proto__":{"permissionDecision":"allow","polluted":true},"constructor":{"prototype":{"polluted":true}}}}';

describe('hook output with __proto__ never pollutes and never changes the verdict', () => {
  it('PreToolUse: __proto__ at both levels is an ordinary unknown key', async () => {
    dir.write('out.json', PROTO_OUTPUT);
    const engine = await engineFor(dir, { PreToolUse: [{ hooks: [{ type: 'command', command: `cat "${dir.path('out.json')}"` }] }] }, tag);
    const d = await engine.run('PreToolUse', bash('ls'));
    expect(d).toMatchObject({ decision: 'deny', reason: 'real reason', blocked: true, continue: true });
    expect(Object.getPrototypeOf(d.eventOutput)).toBe(Object.prototype);
    expect(Object.keys(d.eventOutput)).toEqual([]);
  });

  it('updatedInput with a __proto__ key keeps it as data, with a normal prototype', async () => {
    const out =
      '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ok","__proto__":{"polluted":true}}}}';
    dir.write('out.json', out);
    const engine = await engineFor(dir, { PreToolUse: [{ hooks: [{ type: 'command', command: `cat "${dir.path('out.json')}"` }] }] }, tag);
    const d = await engine.run('PreToolUse', bash('ls'));
    expect(d.decision).toBe('allow');
    const input = d.updatedInput!;
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
    expect(Object.keys(input)).toEqual(['command', '__proto__']);
    expect((input as { polluted?: unknown }).polluted).toBeUndefined();
  });

  // Regression: `key in honoured` let "__proto__" replace the prototype of the parsed
  // event output and let "constructor"/"toString" through as if the event honoured them.
  it.each(['SessionStart', 'PostToolUse', 'UserPromptSubmit'] as const)(
    '%s: eventOutput gets only honoured keys, from two parallel hooks',
    async (event) => {
      const out = `{"hookSpecificOutput":{"hookEventName":"${event}","additionalContext":"ctx","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"toString":"x","hasOwnProperty":"y"}}`;
      dir.write('out.json', out);
      const hook = { type: 'command', command: `cat "${dir.path('out.json')}"` };
      const engine = await engineFor(dir, { [event]: [{ hooks: [hook] }, { hooks: [{ ...hook, command: `${hook.command} #2` }] }] }, tag);
      const input: Record<string, unknown> =
        event === 'SessionStart'
          ? { source: 'startup' }
          : event === 'UserPromptSubmit'
            ? { prompt: 'hi' }
            : { ...bash('ls'), tool_response: {} };
      const d = await engine.run(event, input);
      expect(d.hooks.map((h) => h.outcome)).toEqual(['success', 'success']);
      expect(d.additionalContext).toEqual(['ctx', 'ctx']);
      expect(Object.getPrototypeOf(d.eventOutput)).toBe(Object.prototype);
      expect(Object.keys(d.eventOutput)).toEqual([]);
      expect(typeof d.eventOutput.toString).toBe('function');
    },
  );

  it('a function hook returning a JSON.parse result with __proto__ behaves the same', async () => {
    const engine = createHookEngine({ projectDir: dir.root });
    engine.register({ event: 'PreToolUse', name: 'proto', fn: () => JSON.parse(PROTO_OUTPUT) });
    const d = await engine.run('PreToolUse', bash('ls'));
    expect(d).toMatchObject({ decision: 'deny', reason: 'real reason', continue: true });
    expect(Object.keys(d.eventOutput)).toEqual([]);
  });
});

describe('adversarial payloads', () => {
  /** A hook that copies its stdin to a file, so the test can read what it was given. */
  async function recordingEngine(event: EventName, opts = {}) {
    const seen = dir.path('stdin.json');
    const engine = await engineFor(dir, { [event]: [{ hooks: [{ type: 'command', command: `cat > "${seen}"` }] }] }, tag, opts);
    return { engine, seen: () => readFileSync(seen, 'utf8') };
  }

  it('__proto__ keys in the payload reach the hook verbatim and match nothing they should not', async () => {
    const { engine, seen } = await recordingEngine('PreToolUse');
    const input = JSON.parse(
      '{"tool_name":"Bash","tool_input":{"command":"ls","__proto__":{"polluted":true}},"__proto__":{"tool_name":"Evil","polluted":true}}',
    );
    const d = await engine.run('PreToolUse', input);
    expect(d.hooks).toHaveLength(1);
    const got = seen();
    expect(got).toContain('"__proto__":{"tool_name":"Evil","polluted":true}');
    expect(got).toContain('"tool_input":{"command":"ls","__proto__":{"polluted":true}}');
    expect(JSON.parse(got).tool_name).toBe('Bash');
  });

  it('a 20 MB string is shortened: the hook gets valid JSON under the stdin cap, stdinTruncated is set', async () => {
    const { engine, seen } = await recordingEngine('PostToolUse');
    const huge = 'y'.repeat(20 * 1024 * 1024);
    const d = await engine.run('PostToolUse', { ...bash('cat big'), tool_response: { stdout: huge, stderr: '' } });
    expect(d.hooks[0]).toMatchObject({ outcome: 'success', exitCode: 0, stdinTruncated: true });
    const text = seen();
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(100 * 1024);
    const got = JSON.parse(text);
    expect(got.tool_response.stdout).toMatch(/…\[truncated by agent-hooks: \d+ bytes omitted\]$/);
    expect(got.tool_input).toEqual({ command: 'cat big' });
  });

  it('a tool_input nested 100,000 levels deep: the hook still gets valid JSON, the deep part marked', async () => {
    const { engine, seen } = await recordingEngine('PreToolUse');
    let deep: unknown = 'bottom';
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    const d = await engine.run('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls', deep } });
    expect(d.hooks[0]).toMatchObject({ outcome: 'success', exitCode: 0 });
    const got = seen();
    expect(got).toContain('[nesting too deep, removed by agent-hooks]');
    expect(JSON.parse(got).tool_input.command).toBe('ls');
  });

  it('wrong types: the engine answers with InvalidHookInputError or a decision, nothing else', async () => {
    const file = writeSettings(
      dir,
      Object.fromEntries(EVENT_NAMES.map((e) => [e, [{ hooks: [{ type: 'command', command: 'exit 0' }] }]])),
      tag,
    );
    const config = await loadSettings(dir, file);
    const engine = createHookEngine({ hooks: config.hooks, projectDir: dir.root, cwd: dir.root });
    const hostile = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.constantFrom('__proto__', 'constructor', '', '\u0000', 'x'.repeat(5000)),
      fc.integer(),
      fc.constant(null),
      fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
      fc.jsonValue({ maxDepth: 3 }),
    );
    const inputs = fc.oneof(
      hostile,
      fc.constant(undefined),
      fc.record(
        { tool_name: hostile, tool_input: hostile, session_id: hostile, cwd: hostile, prompt: hostile, source: hostile },
        { requiredKeys: [] },
      ),
      fc.dictionary(
        fc.constantFrom('tool_name', 'tool_input', 'tool_response', 'hook_event_name', 'permission_mode', 'agent_type', '__proto__'),
        hostile,
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...EVENT_NAMES), inputs, async (event, input) => {
        try {
          const d = await engine.run(event, input as Record<string, unknown>);
          expect(d.event).toBe(event);
          for (const h of d.hooks) expect(['success', 'non_blocking_error', 'error', 'blocking']).toContain(h.outcome);
        } catch (err) {
          expect(err).toBeInstanceOf(InvalidHookInputError);
          expect((err as Error).message).toMatch(new RegExp(`^invalid ${event} input: .+`));
        }
      }),
      { numRuns: 300 },
    );
    // Input that is not an object at all is an input error even before anything matches.
    await expect(engine.run('PreToolUse', null as never)).rejects.toThrow(/invalid PreToolUse input: input must be a JSON object/);
    await expect(engine.run('Nope' as EventName, {})).rejects.toBeInstanceOf(InvalidHookInputError);
  });
});

afterAll(() => expectPrototypeClean());
