import { describe, it, expect } from 'vitest';
import type { z } from 'zod';
import {
  catalog,
  EVENT_NAMES,
  TOOL_EVENTS,
  inputSchema,
  isEventName,
  matcherValue,
  outputSchema,
  type EventName,
} from '../../src/events/catalog.js';
import type { EventSpec } from '../../src/events/spec.js';
import { INPUT_EXAMPLES, OUTPUT_EXAMPLES } from './reference-examples.js';

// Claude's events in lifecycle order, as the reference lists them.
const CLAUDE_EVENTS = [
  'SessionStart',
  'Setup',
  'InstructionsLoaded',
  'UserPromptSubmit',
  'UserPromptExpansion',
  'MessageDisplay',
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'PermissionDenied',
  'Notification',
  'SubagentStart',
  'SubagentStop',
  'TaskCreated',
  'TaskCompleted',
  'Stop',
  'StopFailure',
  'TeammateIdle',
  'ConfigChange',
  'CwdChanged',
  'DirectoryAdded',
  'FileChanged',
  'WorktreeCreate',
  'WorktreeRemove',
  'PreCompact',
  'PostCompact',
  'SessionEnd',
  'Elicitation',
  'ElicitationResult',
] as const;
const KIMI_EVENTS = ['PermissionResult', 'UserPromptQueued', 'TurnStarted', 'Interrupt', 'SessionHeartbeat', 'TaskStarted'] as const;

const spec = (e: EventName) => catalog[e] as EventSpec;

/** What the engine adds to every input. */
const ENGINE_FIELDS = { hook_execution_id: 'exec-1', timestamp: '2026-01-01T00:00:00.000Z' };
const base = (event: string) => ({
  session_id: 's1',
  transcript_path: '/t.jsonl',
  cwd: '/w',
  hook_event_name: event,
  ...ENGINE_FIELDS,
});
function example(event: string): Record<string, unknown> {
  const found = INPUT_EXAMPLES.find((x) => x.event === event);
  if (!found) throw new Error(`no reference example for ${event}`);
  return { ...found.input, ...ENGINE_FIELDS };
}
function issuePaths(schema: z.ZodType, value: unknown): PropertyKey[][] {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => i.path);
}

describe('event catalog: membership', () => {
  it('holds exactly the 31 Claude events and the 6 Kimi extras', () => {
    expect(EVENT_NAMES).toHaveLength(37);
    expect(new Set(EVENT_NAMES)).toEqual(new Set([...CLAUDE_EVENTS, ...KIMI_EVENTS]));
    expect(EVENT_NAMES.filter((e) => spec(e).origin === 'claude')).toEqual([...CLAUDE_EVENTS]);
    expect(EVENT_NAMES.filter((e) => spec(e).origin === 'kimi').sort()).toEqual([...KIMI_EVENTS].sort());
  });

  it('isEventName tells events from other strings', () => {
    expect(isEventName('PreCompact')).toBe(true);
    expect(isEventName('TurnStarted')).toBe(true);
    expect(isEventName('PreToolUse ')).toBe(false);
    expect(isEventName('toString')).toBe(false);
  });
});

describe('inputSchema: reference examples', () => {
  it('has a reference example for every Claude event', () => {
    expect(new Set(INPUT_EXAMPLES.map((x) => x.event))).toEqual(new Set(CLAUDE_EVENTS));
  });

  for (const ex of INPUT_EXAMPLES) {
    it(`parses the ${ex.event} example (${ex.section})`, () => {
      expect(isEventName(ex.event)).toBe(true);
      const r = inputSchema(ex.event as EventName).safeParse({ ...ex.input, ...ENGINE_FIELDS });
      expect(r.success ? [] : r.error.issues).toEqual([]);
    });
  }

  it('requires the engine fields hook_execution_id and timestamp', () => {
    const { input } = INPUT_EXAMPLES.find((x) => x.event === 'Stop')!;
    expect(issuePaths(inputSchema('Stop'), input)).toEqual([['hook_execution_id'], ['timestamp']]);
  });

  it('keeps unknown fields (loose) so newer agent versions still validate', () => {
    const r = inputSchema('Notification').safeParse({ ...example('Notification'), future_field: { a: 1 } });
    expect(r.success).toBe(true);
    expect((r.data as Record<string, unknown>).future_field).toEqual({ a: 1 });
  });
});

describe('inputSchema: wrong inputs fail with a path', () => {
  const cases: Array<[EventName, Record<string, unknown>, PropertyKey[]]> = [
    ['PreToolUse', { tool_input: 'rm -rf /' }, ['tool_input']],
    ['PreToolUse', { tool_name: 42 }, ['tool_name']],
    ['PreToolUse', { hook_event_name: 'PostToolUse' }, ['hook_event_name']],
    ['PreToolUse', { tool_use_id: 42 }, ['tool_use_id']],
    ['PostToolUse', { tool_response: undefined }, ['tool_response']],
    ['PostToolUse', { duration_ms: '12' }, ['duration_ms']],
    ['PostToolUseFailure', { is_interrupt: 'no' }, ['is_interrupt']],
    ['PermissionRequest', { permission_suggestions: [1] }, ['permission_suggestions', 0]],
    [
      'PostToolBatch',
      { tool_calls: [{ tool_name: 5, tool_input: {}, tool_use_id: 'a', tool_response: '' }] },
      ['tool_calls', 0, 'tool_name'],
    ],
    ['MessageDisplay', { index: -1 }, ['index']],
    ['MessageDisplay', { final: 'true' }, ['final']],
    ['Stop', { stop_hook_active: 'yes' }, ['stop_hook_active']],
    ['Stop', { background_tasks: [{ id: 'task-001', type: 'shell' }] }, ['background_tasks', 0, 'status']],
    ['Stop', { session_crons: [{ id: 'c', schedule: '* * * * *', recurring: 'true' }] }, ['session_crons', 0, 'recurring']],
    ['SubagentStart', { agent_type: undefined }, ['agent_type']],
    ['SubagentStop', { agent_transcript_path: 7 }, ['agent_transcript_path']],
    ['ElicitationResult', { action: 'maybe' }, ['action']],
    ['Elicitation', { requested_schema: 'form' }, ['requested_schema']],
    ['InstructionsLoaded', { globs: 'src/**' }, ['globs']],
    ['CwdChanged', { new_cwd: null }, ['new_cwd']],
    ['FileChanged', { file_path: undefined }, ['file_path']],
    ['SessionEnd', { reason: 1 }, ['reason']],
    ['TaskCreated', { task_subject: undefined }, ['task_subject']],
    ['PreCompact', { custom_instructions: undefined }, ['custom_instructions']],
    ['WorktreeCreate', { name: ['x'] }, ['name']],
    ['SessionStart', { session_id: 5 }, ['session_id']],
  ];
  // A patch value of undefined removes the field, as a missing key is what JSON can express.
  const applyPatch = (input: Record<string, unknown>, patch: Record<string, unknown>) =>
    Object.fromEntries(Object.entries({ ...input, ...patch }).filter(([, v]) => v !== undefined));
  for (const [event, patch, path] of cases) {
    const label = Object.entries(patch).map(([k, v]) => `${k}=${v === undefined ? 'missing' : JSON.stringify(v)}`);
    it(`${event}: ${label.join(', ')} fails at ${path.join('.')}`, () => {
      expect(issuePaths(inputSchema(event), applyPatch(example(event), patch))).toEqual([path]);
    });
  }

  it('tool_use_id may be missing (older agents, other dialects) but must be a string when present', () => {
    const { tool_use_id, ...rest } = example('PreToolUse');
    expect(tool_use_id).toBeDefined();
    expect(inputSchema('PermissionRequest').safeParse({ ...rest, hook_event_name: 'PermissionRequest' }).success).toBe(true);
    expect(inputSchema('PreToolUse').safeParse(rest).success).toBe(true);
    expect(inputSchema('PreToolUse').safeParse({ ...rest, tool_use_id: 7 }).success).toBe(false);
  });

  it('the Kimi extras parse a plausible payload and reject wrong types', () => {
    const ok: Record<(typeof KIMI_EVENTS)[number], Record<string, unknown>> = {
      PermissionResult: { tool_name: 'Bash', tool_input: { command: 'ls' }, decision: 'allow' },
      UserPromptQueued: { prompt: 'next' },
      TurnStarted: { turn_id: 't1' },
      Interrupt: { reason: 'user_cancel' },
      SessionHeartbeat: { uptime_ms: 60_000, interval_ms: 60_000 },
      TaskStarted: { task_id: 'bg-1', task_subject: 'npm test' },
    };
    for (const e of KIMI_EVENTS) {
      expect(inputSchema(e).safeParse({ ...base(e), ...ok[e] }).success, e).toBe(true);
    }
    expect(issuePaths(inputSchema('TaskStarted'), base('TaskStarted'))).toEqual([['task_id']]);
    expect(issuePaths(inputSchema('SessionHeartbeat'), { ...base('SessionHeartbeat'), uptime_ms: '1m' })).toEqual([['uptime_ms']]);
  });
});

describe('execution order, if conditions and matchers', () => {
  it('runs exactly PreToolUse, PermissionRequest, Stop, SubagentStop and PreCompact serially', () => {
    const serial = EVENT_NAMES.filter((e) => spec(e).order === 'serial');
    expect(new Set(serial)).toEqual(new Set(['PreToolUse', 'PermissionRequest', 'Stop', 'SubagentStop', 'PreCompact']));
    expect(serial).toHaveLength(5);
  });

  it('evaluates `if` exactly on the five Claude tool events, which match on tool_name', () => {
    const expected = ['PreToolUse', 'PermissionRequest', 'PostToolUse', 'PostToolUseFailure', 'PermissionDenied'];
    expect(new Set(TOOL_EVENTS)).toEqual(new Set(expected));
    expect(TOOL_EVENTS).toHaveLength(5);
    for (const e of TOOL_EVENTS) {
      expect(spec(e).ifCondition).toBe(true);
      expect(spec(e).matcher).toEqual({ field: 'tool_name', exactSet: 'standard' });
    }
  });

  it('matches each event on the field the reference names (null = no matcher support)', () => {
    const fields: Record<EventName, string | null> = {
      SessionStart: 'source',
      Setup: 'trigger',
      InstructionsLoaded: 'load_reason',
      UserPromptSubmit: null,
      UserPromptExpansion: 'command_name',
      MessageDisplay: null,
      PreToolUse: 'tool_name',
      PermissionRequest: 'tool_name',
      PostToolUse: 'tool_name',
      PostToolUseFailure: 'tool_name',
      PostToolBatch: null,
      PermissionDenied: 'tool_name',
      Notification: 'notification_type',
      SubagentStart: 'agent_type',
      SubagentStop: 'agent_type',
      TaskCreated: null,
      TaskCompleted: null,
      Stop: null,
      StopFailure: 'error',
      TeammateIdle: null,
      ConfigChange: 'source',
      CwdChanged: null,
      DirectoryAdded: 'source',
      FileChanged: 'file_path',
      WorktreeCreate: null,
      WorktreeRemove: null,
      PreCompact: 'trigger',
      PostCompact: 'trigger',
      SessionEnd: 'reason',
      Elicitation: 'mcp_server_name',
      ElicitationResult: 'mcp_server_name',
      PermissionResult: 'tool_name',
      UserPromptQueued: 'prompt',
      TurnStarted: null,
      Interrupt: null,
      SessionHeartbeat: null,
      TaskStarted: null,
    };
    for (const e of EVENT_NAMES) expect(spec(e).matcher?.field ?? null, e).toBe(fields[e]);
    const narrow = EVENT_NAMES.filter((e) => spec(e).matcher?.exactSet === 'narrow');
    expect(new Set(narrow)).toEqual(new Set(['FileChanged', 'StopFailure']));
  });

  it('matcherValue reads the matcher field from reference inputs', () => {
    const expected: Array<[EventName, string | undefined]> = [
      ['PreToolUse', 'Bash'],
      ['PermissionDenied', 'Bash'],
      ['PostToolUse', 'Write'],
      ['SessionStart', 'startup'],
      ['Setup', 'init'],
      ['InstructionsLoaded', 'session_start'],
      ['UserPromptExpansion', 'example-skill'],
      ['Notification', 'permission_prompt'],
      ['SubagentStart', 'Explore'],
      ['SubagentStop', 'Explore'],
      ['StopFailure', 'rate_limit'],
      ['ConfigChange', 'project_settings'],
      ['DirectoryAdded', 'slash_command'],
      ['FileChanged', '.envrc'],
      ['PreCompact', 'manual'],
      ['PostCompact', 'manual'],
      ['SessionEnd', 'other'],
      ['Elicitation', 'my-mcp-server'],
      ['ElicitationResult', 'my-mcp-server'],
      ['Stop', undefined],
      ['CwdChanged', undefined],
      ['UserPromptSubmit', undefined],
      ['WorktreeCreate', undefined],
    ];
    for (const [event, value] of expected) expect(matcherValue(event, example(event)), event).toBe(value);
  });

  it('matcherValue: FileChanged uses the basename of POSIX and Windows paths; missing or non-string fields give undefined', () => {
    expect(matcherValue('FileChanged', { file_path: 'C:\\proj\\.env' })).toBe('.env');
    expect(matcherValue('FileChanged', { file_path: '/a/b/data.csv' })).toBe('data.csv');
    expect(matcherValue('PreToolUse', {})).toBeUndefined();
    expect(matcherValue('PreToolUse', { tool_name: 3 })).toBeUndefined();
    expect(matcherValue('UserPromptQueued', { prompt: 'deploy now' })).toBe('deploy now');
  });
});

describe('event semantics from the reference', () => {
  it('exit code 2 does what the per-event table says', () => {
    const exit2: Record<EventName, EventSpec['exit2']> = {
      PreToolUse: 'block',
      PermissionRequest: 'ignore',
      UserPromptSubmit: 'block',
      UserPromptExpansion: 'block',
      Stop: 'block',
      SubagentStop: 'block',
      TeammateIdle: 'block',
      TaskCreated: 'block',
      TaskCompleted: 'block',
      ConfigChange: 'block',
      StopFailure: 'ignore',
      PostToolUse: 'feedback',
      PostToolUseFailure: 'feedback',
      PostToolBatch: 'block',
      PermissionDenied: 'ignore',
      Notification: 'ignore',
      SubagentStart: 'user',
      SessionStart: 'user',
      Setup: 'user',
      SessionEnd: 'user',
      CwdChanged: 'user',
      DirectoryAdded: 'ignore',
      FileChanged: 'user',
      PreCompact: 'block',
      PostCompact: 'user',
      Elicitation: 'block',
      ElicitationResult: 'block',
      WorktreeCreate: 'block',
      WorktreeRemove: 'ignore',
      InstructionsLoaded: 'ignore',
      MessageDisplay: 'ignore',
      PermissionResult: 'ignore',
      UserPromptQueued: 'user',
      TurnStarted: 'user',
      Interrupt: 'user',
      SessionHeartbeat: 'ignore',
      TaskStarted: 'user',
    };
    for (const e of EVENT_NAMES) expect(spec(e).exit2, e).toBe(exit2[e]);
  });

  it('decision models follow the decision-control table', () => {
    const topLevel = EVENT_NAMES.filter((e) => spec(e).topLevelBlock);
    expect(new Set(topLevel)).toEqual(
      new Set([
        'UserPromptSubmit',
        'UserPromptExpansion',
        'PostToolUse',
        'PostToolUseFailure',
        'PostToolBatch',
        'Stop',
        'SubagentStop',
        'ConfigChange',
        'PreCompact',
        'TaskCreated',
      ]),
    );
    const model = (d: EventSpec['decision']) => new Set(EVENT_NAMES.filter((e) => spec(e).decision === d));
    expect(model('permission')).toEqual(new Set(['PreToolUse']));
    expect(model('permission-request')).toEqual(new Set(['PermissionRequest']));
    expect(model('exit-or-continue')).toEqual(new Set(['TeammateIdle', 'TaskCompleted']));
    expect(model('context')).toEqual(new Set(['SessionStart', 'Setup', 'SubagentStart']));
    expect(model('elicitation')).toEqual(new Set(['Elicitation', 'ElicitationResult']));
    expect(model('display')).toEqual(new Set(['MessageDisplay']));
    expect(model('retry')).toEqual(new Set(['PermissionDenied']));
    expect(model('worktree')).toEqual(new Set(['WorktreeCreate']));
    expect(model('none')).toEqual(
      new Set([
        'WorktreeRemove',
        'Notification',
        'SessionEnd',
        'PostCompact',
        'InstructionsLoaded',
        'StopFailure',
        'CwdChanged',
        'DirectoryAdded',
        'FileChanged',
        ...KIMI_EVENTS,
      ]),
    );
  });

  it('only events that can stop their action are marked canBlock', () => {
    const canBlock = EVENT_NAMES.filter((e) => spec(e).canBlock);
    expect(new Set(canBlock)).toEqual(
      new Set([
        'UserPromptSubmit',
        'UserPromptExpansion',
        'PreToolUse',
        'PermissionRequest',
        'PostToolBatch',
        'SubagentStop',
        'TaskCreated',
        'TaskCompleted',
        'Stop',
        'TeammateIdle',
        'ConfigChange',
        'WorktreeCreate',
        'PreCompact',
        'Elicitation',
        'ElicitationResult',
      ]),
    );
  });

  it('plain stdout is context only for UserPromptSubmit, UserPromptExpansion and SessionStart; a path for WorktreeCreate', () => {
    const by = (p: EventSpec['plainStdout']) => new Set(EVENT_NAMES.filter((e) => spec(e).plainStdout === p));
    expect(by('context')).toEqual(new Set(['UserPromptSubmit', 'UserPromptExpansion', 'SessionStart']));
    expect(by('path')).toEqual(new Set(['WorktreeCreate']));
    expect(by('log').size).toBe(33);
  });

  it('events that discard continue/systemMessage are not universal', () => {
    const notUniversal = EVENT_NAMES.filter((e) => !spec(e).universal);
    expect(new Set(notUniversal)).toEqual(
      new Set([
        'InstructionsLoaded',
        'MessageDisplay',
        'Notification',
        'TaskCreated',
        'StopFailure',
        'ConfigChange',
        'CwdChanged',
        'DirectoryAdded',
        'FileChanged',
        'WorktreeCreate',
        'WorktreeRemove',
        'PreCompact',
        'PostCompact',
        'SessionEnd',
        'Elicitation',
        'ElicitationResult',
        ...KIMI_EVENTS,
      ]),
    );
    const keepsMessage = EVENT_NAMES.filter((e) => spec(e).keepsSystemMessage);
    expect(new Set(keepsMessage)).toEqual(new Set(['CwdChanged', 'FileChanged', 'DirectoryAdded', 'TaskCreated']));
  });

  it('lowered default timeouts, CLAUDE_ENV_FILE and hook-type restrictions', () => {
    const timeouts = Object.fromEntries(
      EVENT_NAMES.filter((e) => spec(e).defaultTimeoutSec !== undefined).map((e) => [e, spec(e).defaultTimeoutSec]),
    );
    expect(timeouts).toEqual({ UserPromptSubmit: 30, MessageDisplay: 10, SessionEnd: 1.5 });
    expect(new Set(EVENT_NAMES.filter((e) => spec(e).envFile))).toEqual(new Set(['SessionStart', 'Setup', 'CwdChanged', 'FileChanged']));
    expect(spec('SessionStart').hookTypes).toEqual(['command', 'mcp_tool', 'function']);
    expect(spec('Setup').hookTypes).toEqual(['command', 'mcp_tool', 'function']);
    // The reference's "all five hook types" list: no restriction here.
    for (const e of ['PreToolUse', 'PermissionRequest', 'PostToolUse', 'Stop', 'UserPromptSubmit', 'TaskCompleted'] as const) {
      expect(spec(e).hookTypes, e).toBeUndefined();
    }
    // command/http/mcp_tool only (plus our function hooks): no prompt or agent.
    for (const e of ['Notification', 'PreCompact', 'WorktreeCreate', 'Elicitation', 'SessionEnd'] as const) {
      expect(spec(e).hookTypes, e).toEqual(['command', 'http', 'mcp_tool', 'function']);
    }
    for (const e of EVENT_NAMES) expect(spec(e).hookTypes ?? ['function'], e).toContain('function');
  });

  it('Kimi extras are observation-only', () => {
    for (const e of KIMI_EVENTS) {
      expect(spec(e).decision, e).toBe('none');
      expect(spec(e).canBlock, e).toBe(false);
      expect(['ignore', 'user'], e).toContain(spec(e).exit2);
      expect(spec(e).ifCondition, e).toBe(false);
    }
  });
});

describe('outputSchema', () => {
  it('has output examples for the events with hookSpecificOutput fields', () => {
    const covered = new Set(OUTPUT_EXAMPLES.flatMap((x) => x.events));
    for (const e of EVENT_NAMES) {
      const fields = Object.keys((spec(e).output as z.ZodObject).shape);
      if (spec(e).origin === 'claude' && fields.length > 0 && e !== 'CwdChanged' && e !== 'FileChanged') {
        expect(covered.has(e), e).toBe(true);
      }
    }
  });

  for (const ex of OUTPUT_EXAMPLES) {
    for (const event of ex.events) {
      it(`accepts the ${ex.section} example as ${event} output`, () => {
        expect(isEventName(event)).toBe(true);
        const r = outputSchema(event as EventName).safeParse(ex.output);
        expect(r.success ? [] : r.error.issues).toEqual([]);
      });
    }
  }

  it('accepts watchPaths for CwdChanged and FileChanged, blockCompaction for PreCompact', () => {
    for (const e of ['CwdChanged', 'FileChanged'] as const) {
      const out = { systemMessage: 'env reloaded', hookSpecificOutput: { hookEventName: e, watchPaths: ['/w/.envrc'] } };
      expect(outputSchema(e).safeParse(out).success, e).toBe(true);
    }
    expect(
      outputSchema('PreCompact').safeParse({ hookSpecificOutput: { hookEventName: 'PreCompact', blockCompaction: true } }).success,
    ).toBe(true);
  });

  it('accepts the deprecated PreToolUse decision "approve" but not on block-only events', () => {
    expect(outputSchema('PreToolUse').safeParse({ decision: 'approve', reason: 'ok' }).success).toBe(true);
    expect(outputSchema('PreToolUse').safeParse({ decision: 'block', reason: 'no' }).success).toBe(true);
    expect(issuePaths(outputSchema('Stop'), { decision: 'approve' })).toEqual([['decision']]);
    expect(issuePaths(outputSchema('PreToolUse'), { decision: 'allow' })).toEqual([['decision']]);
  });

  it('rejects wrong types with a path', () => {
    expect(
      issuePaths(outputSchema('PreToolUse'), {
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'maybe' },
      }),
    ).toEqual([['hookSpecificOutput', 'permissionDecision']]);
    expect(
      issuePaths(outputSchema('PermissionRequest'), {
        hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'ask' } },
      }),
    ).toEqual([['hookSpecificOutput', 'decision', 'behavior']]);
    expect(issuePaths(outputSchema('PostToolUse'), { hookSpecificOutput: { hookEventName: 'PreToolUse' } })).toEqual([
      ['hookSpecificOutput', 'hookEventName'],
    ]);
    expect(issuePaths(outputSchema('Stop'), { hookSpecificOutput: { additionalContext: 'x' } })).toEqual([
      ['hookSpecificOutput', 'hookEventName'],
    ]);
    expect(issuePaths(outputSchema('Notification'), { continue: 'no', systemMessage: 3 })).toEqual([['continue'], ['systemMessage']]);
    expect(
      issuePaths(outputSchema('Elicitation'), {
        hookSpecificOutput: { hookEventName: 'Elicitation', action: 'accept', content: 'alice' },
      }),
    ).toEqual([['hookSpecificOutput', 'content']]);
    expect(
      issuePaths(outputSchema('PermissionDenied'), { hookSpecificOutput: { hookEventName: 'PermissionDenied', retry: 'yes' } }),
    ).toEqual([['hookSpecificOutput', 'retry']]);
  });

  it('stays lenient on unknown keys at every level', () => {
    const out = {
      futureTop: 1,
      hookSpecificOutput: { hookEventName: 'MessageDisplay', displayContent: 'x', futureNested: true },
    };
    const r = outputSchema('MessageDisplay').safeParse(out);
    expect(r.success).toBe(true);
    expect(r.data).toEqual(out);
  });
});
