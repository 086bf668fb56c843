/**
 * The engine refuses what it does not know: a misspelled option or registration field is a
 * TypeError naming it, with the closest known key, before anything runs (issue 38: `hook:` for
 * `hooks:` gave an engine with no hooks, and a force push went through its guard).
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createHookEngine as createTypedEngine } from '../../src/api.js';
import type { HttpBackendOptions } from '../../src/backends/http.js';
import type { PromptBackendOptions } from '../../src/backends/prompt.js';
import { createHookEngine, type FunctionHookRegistration, type HookEngineOptions } from '../../src/engine/engine.js';
import { ENGINE_OPTION_KEYS, HTTP_OPTION_KEYS, PROMPT_OPTION_KEYS, REGISTRATION_KEYS } from '../../src/engine/option-keys.js';
import { createMcpClientManager } from '../../src/mcp/manager.js';
import { MCP_MANAGER_OPTION_KEYS, type McpClientManagerOptions } from '../../src/mcp/types.js';
import type { NormalizedHook } from '../../src/types.js';

const denyAll: NormalizedHook = {
  id: 'guard',
  event: 'PreToolUse',
  matcher: 'Bash',
  handler: { type: 'function', fn: () => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' } }) },
  source: { kind: 'sdk', path: 'function:guard' },
  dedupKey: 'guard',
};
const forcePush = { tool_name: 'Bash', tool_input: { command: 'git push --force' }, tool_use_id: 't1' };

describe('createHookEngine options', () => {
  it('a misspelled option is a TypeError naming it and the closest known one', () => {
    expect(() => createHookEngine({ hook: [denyAll] } as never)).toThrow(
      new TypeError('createHookEngine: unknown option "hook" (did you mean "hooks"?)'),
    );
    expect(() => createTypedEngine({ projectdir: '/tmp' } as never)).toThrow(/unknown option "projectdir" \(did you mean "projectDir"\?\)/);
    // Nothing near: the known options are listed instead.
    expect(() => createHookEngine({ zzzzzzzzzz: 1 } as never)).toThrow(
      /unknown option "zzzzzzzzzz" \(known: hooks, projectDir, .*onWarning\)/,
    );
  });

  it('the option objects written by hand are checked too: http, prompt, mcp, backends', () => {
    expect(() => createHookEngine({ http: { allowedHttpHookUrl: [] } } as never)).toThrow(
      new TypeError('createHookEngine: unknown option "http.allowedHttpHookUrl" (did you mean "http.allowedHttpHookUrls"?)'),
    );
    expect(() => createHookEngine({ prompt: { defaultModle: 'm' } } as never)).toThrow(
      /unknown option "prompt\.defaultModle" \(did you mean "prompt\.defaultModel"\?\)/,
    );
    expect(() => createHookEngine({ mcp: { server: {} } } as never)).toThrow(
      /unknown option "mcp\.server" \(did you mean "mcp\.servers"\?\)/,
    );
    expect(() => createMcpClientManager({ server: {} } as never)).toThrow(
      new TypeError('createMcpClientManager: unknown option "server" (did you mean "servers"?)'),
    );
    expect(() => createHookEngine({ backends: { comand: {} } } as never)).toThrow(
      /unknown option "backends\.comand" \(did you mean "backends\.command"\?\)/,
    );
  });

  it('a manager given as `mcp` is the caller’s object, not options: its methods are not checked', async () => {
    const manager = createMcpClientManager({});
    const engine = createHookEngine({ mcp: manager });
    await engine.close();
    await manager.close();
  });

  it('the correctly spelled call runs its hooks', async () => {
    const engine = createHookEngine({ hooks: [denyAll], spawner: false });
    const d = await engine.run('PreToolUse', forcePush);
    expect(d.decision).toBe('deny');
    await engine.close();
  });

  it('every key of HookEngineOptions is accepted (the list is the interface: see the type assertions)', async () => {
    expectTypeOf<keyof typeof ENGINE_OPTION_KEYS>().toEqualTypeOf<keyof HookEngineOptions>();
    expectTypeOf<keyof typeof HTTP_OPTION_KEYS>().toEqualTypeOf<keyof HttpBackendOptions>();
    expectTypeOf<keyof typeof PROMPT_OPTION_KEYS>().toEqualTypeOf<keyof PromptBackendOptions>();
    expectTypeOf<keyof typeof MCP_MANAGER_OPTION_KEYS>().toEqualTypeOf<keyof McpClientManagerOptions>();
    const everyKey = Object.fromEntries(Object.keys(ENGINE_OPTION_KEYS).map((k) => [k, undefined])) as HookEngineOptions;
    expect(Object.keys(everyKey).length).toBeGreaterThan(25);
    const engine = createHookEngine(everyKey);
    await engine.close();
    for (const key of Object.keys(ENGINE_OPTION_KEYS)) await createHookEngine({ [key]: undefined }).close();
    const nested = (keys: object) => Object.fromEntries(Object.keys(keys).map((k) => [k, undefined]));
    createHookEngine({ http: nested(HTTP_OPTION_KEYS), prompt: nested(PROMPT_OPTION_KEYS), mcp: nested(MCP_MANAGER_OPTION_KEYS) });
  });
});

describe('register', () => {
  it('a misspelled field is a TypeError at registration, and nothing is registered', () => {
    const engine = createHookEngine();
    expect(() => engine.register({ event: 'PreToolUse', matchr: 'Bash', fn: () => undefined } as never)).toThrow(
      new TypeError('register: unknown field "matchr" (did you mean "matcher"?)'),
    );
    expect(engine.list()).toEqual([]);
  });

  it('every field of FunctionHookRegistration is accepted, and a valid registration runs', async () => {
    expectTypeOf<keyof typeof REGISTRATION_KEYS>().toEqualTypeOf<keyof FunctionHookRegistration>();
    const engine = createTypedEngine();
    const full: Record<keyof FunctionHookRegistration, unknown> = {
      event: 'PreToolUse',
      matcher: 'Bash',
      if: 'Bash(git push *)',
      name: 'no-force',
      timeout: 5,
      failureBehavior: 'deny',
      timeoutBehavior: 'deny',
      projectDir: undefined,
      fn: () => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' } }),
    };
    expect(Object.keys(full).sort()).toEqual(Object.keys(REGISTRATION_KEYS).sort());
    engine.register(full as never);
    expect((await engine.run('PreToolUse', forcePush)).decision).toBe('deny');
  });
});
