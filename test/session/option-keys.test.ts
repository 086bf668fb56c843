/**
 * The hook manager refuses what it does not know: its options, the engine options it hands each
 * session, bindSession/startSession options and manager registrations. A typo is a TypeError
 * naming the key and the closest known one, at the call, before a session is bound (issue 38).
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { FunctionHookRegistration } from '../../src/engine/engine.js';
import {
  BIND_OPTION_KEYS,
  MANAGER_OPTION_KEYS,
  MANAGER_TRUST_KEYS,
  SESSION_ENGINE_OPTION_KEYS,
  START_OPTION_KEYS,
} from '../../src/session/option-keys.js';
import type { BindOptions, HookManagerOptions, SessionEngineOptions, StartOptions } from '../../src/session/types.js';
import { appendHook, bash, lines, useSessionSandbox } from './helpers.js';

const { sb, manager } = useSessionSandbox();

describe('createHookManager options', () => {
  it('a misspelled option is a TypeError naming it and the closest known one', () => {
    expect(() => manager({ loadOption: () => ({ cwd: '/' }) } as never)).toThrow(
      new TypeError('createHookManager: unknown option "loadOption" (did you mean "loadOptions"?)'),
    );
    expect(() => manager({ trust: { storepath: '/x' } } as never)).toThrow(
      /unknown option "trust\.storepath" \(did you mean "trust\.storePath"\?\)/,
    );
  });

  it('engineOptions are checked as engine options, and the ones the manager sets are refused', () => {
    expect(() => manager({ engineOptions: { maxConcurentHooks: 2 } } as never)).toThrow(
      new TypeError(
        'createHookManager: unknown option "engineOptions.maxConcurentHooks" (did you mean "engineOptions.maxConcurrentHooks"?)',
      ),
    );
    expect(() => manager({ engineOptions: { http: { maxResponseByte: 1 } } } as never)).toThrow(
      /unknown option "engineOptions\.http\.maxResponseByte" \(did you mean "engineOptions\.http\.maxResponseBytes"\?\)/,
    );
    expect(() => manager({ engineOptions: { hooks: [] } } as never)).toThrow(
      new TypeError('createHookManager: option "engineOptions.hooks" is set by the manager for each session'),
    );
  });

  it('engineOptions given as a function: its result is checked at bind, and the session id stays free', async () => {
    const project = sb.project('p');
    let typo = true;
    const m = manager({ load: sb.load, engineOptions: () => (typo ? ({ stdinLimitByte: 1 } as never) : { stdinLimitBytes: 1024 }) });
    await expect(m.bindSession({ sessionId: 's', projectDir: project })).rejects.toThrow(
      /bindSession: unknown option "engineOptions\(session\)\.stdinLimitByte" \(did you mean "engineOptions\(session\)\.stdinLimitBytes"\?\)/,
    );
    typo = false;
    const s = await m.bindSession({ sessionId: 's', projectDir: project });
    expect(m.sessions()).toEqual([s.id]);
  });

  it('bindSession and startSession refuse unknown options before binding', async () => {
    const project = sb.project('p');
    const m = manager({ load: sb.load });
    await expect(m.bindSession({ sessionId: 's', projectDir: project, worktreDir: project } as never)).rejects.toThrow(
      new TypeError('bindSession: unknown option "worktreDir" (did you mean "worktreeDir"?)'),
    );
    await expect(m.startSession({ sessionId: 's', projectDir: project, sourse: 'resume' } as never)).rejects.toThrow(
      /startSession: unknown option "sourse" \(did you mean "source"\?\)/,
    );
    expect(m.sessions()).toEqual([]);
  });

  it('a manager registration with a misspelled field is refused at the call, before any session exists', () => {
    const m = manager({ load: sb.load });
    expect(() => m.register({ event: 'PreToolUse', matchr: 'Bash', fn: () => undefined } as never)).toThrow(
      new TypeError('register: unknown field "matchr" (did you mean "matcher"?)'),
    );
  });

  it('correctly spelled calls bind and run the session', async () => {
    const log = sb.dir.path('log');
    const project = sb.project('p', { PreToolUse: [{ matcher: 'Bash', hooks: [appendHook(log, 'ran')] }] });
    const m = manager({ load: sb.load, engineOptions: { maxConcurrentHooks: 2, spawner: false }, projectCacheSize: 4 });
    const denied: string[] = [];
    m.register({ event: 'PreToolUse', matcher: 'Bash', fn: () => void denied.push('fn') });
    const r = await m.startSession({ sessionId: 's', projectDir: project, source: 'startup', input: {} });
    expect(r.ok).toBe(true);
    await m.session('s')!.run('PreToolUse', bash());
    expect(lines(log)).toEqual(['ran']);
    expect(denied).toEqual(['fn']);
  });

  it('every key of each interface is accepted (the lists are the interfaces)', async () => {
    expectTypeOf<keyof typeof MANAGER_OPTION_KEYS>().toEqualTypeOf<keyof HookManagerOptions>();
    expectTypeOf<keyof typeof MANAGER_TRUST_KEYS>().toEqualTypeOf<keyof NonNullable<HookManagerOptions['trust']>>();
    expectTypeOf<keyof typeof SESSION_ENGINE_OPTION_KEYS>().toEqualTypeOf<keyof SessionEngineOptions>();
    expectTypeOf<keyof typeof BIND_OPTION_KEYS>().toEqualTypeOf<keyof BindOptions>();
    expectTypeOf<keyof typeof START_OPTION_KEYS>().toEqualTypeOf<keyof StartOptions>();
    const undefinedFor = (keys: object) => Object.fromEntries(Object.keys(keys).map((k) => [k, undefined]));
    // The engine options a session may set: every engine option but the six the manager owns.
    expect(Object.keys(SESSION_ENGINE_OPTION_KEYS)).not.toContain('hooks');
    expect(Object.keys(SESSION_ENGINE_OPTION_KEYS).length).toBeGreaterThan(20);
    const m = manager({
      ...undefinedFor(MANAGER_OPTION_KEYS),
      load: sb.load,
      trust: undefined,
      engineOptions: undefinedFor(SESSION_ENGINE_OPTION_KEYS),
    } as HookManagerOptions);
    manager({ trust: undefinedFor(MANAGER_TRUST_KEYS) });
    const project = sb.project('p');
    await m.bindSession({ ...undefinedFor(BIND_OPTION_KEYS), sessionId: 'b', projectDir: project } as BindOptions);
    await m.startSession({ ...undefinedFor(START_OPTION_KEYS), sessionId: 's', projectDir: project } as StartOptions);
    const reg: Record<keyof FunctionHookRegistration, unknown> = {
      event: 'Stop',
      matcher: undefined,
      if: undefined,
      name: 'n',
      timeout: 5,
      failureBehavior: 'ignore',
      timeoutBehavior: 'ignore',
      projectDir: project,
      fn: () => undefined,
    };
    m.register(reg as never)();
    expect(m.sessions().sort()).toEqual(['b', 's']);
  });
});
