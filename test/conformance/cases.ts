/**
 * The conformance table: each case (event, Claude settings, payloads, mode) and, for every door
 * (entry point) of the engine, whether that door carries it and what it must answer. The rule a
 * case checks lives in one place of the engine (`module`); `mutant` is the textual edit that
 * removes it there, which test/conformance/mutants.test.ts applies to a copy of src/ to prove the
 * case fails without the rule. docs/conformance.md is generated from this table (doc.test.ts).
 */
import type { EventName } from '../../src/events/catalog.js';

export const DOORS = ['library', 'session', 'run', 'test', 'dispatch-claude', 'dispatch-codex', 'server', 'remote'] as const;
export type DoorName = (typeof DOORS)[number];

/** What a door answered for one event, normalized (decoded from the agent's answer for dispatch). */
export interface Outcome {
  decision?: 'allow' | 'deny' | 'ask' | 'block' | 'defer';
  blocked: boolean;
  reason?: string;
  updatedInput?: Record<string, unknown>;
  updatedOutput?: unknown;
}

/** An expected Outcome: the reason is a pattern; a field left out must be absent. */
export interface Expected extends Omit<Outcome, 'reason'> {
  reason?: RegExp;
}

export interface Step {
  event: EventName;
  /** The canonical payload's own fields (the doors add session_id, cwd, hook_event_name). */
  payload: Record<string, unknown>;
  expect: Expected;
}

/** How a door stands to a case (a door absent from `doors` carries it with the case's expectation). */
export type Cell =
  /** Carried, but the door's agent cannot say the engine's answer: this is what it says instead. */
  | { kind: 'translated'; why: string; expect: Expected[] }
  /** The door refuses the case loudly (this error), by design: never a silent pass. */
  | { kind: 'refuses'; why: string; error: RegExp }
  /** The door cannot carry the case. */
  | { kind: 'n/a'; why: string }
  /** The door should carry it and does not yet: run as an expected failure (vitest test.fails) until `why` lands. */
  | { kind: 'pending'; why: string };

export interface Mutant {
  /** Path under src/. */
  file: string;
  /** Exact text, found once in the real source. */
  find: string;
  replace: string;
  /** What the edit removes, in words. */
  removes: string;
}

export interface ConformanceCase {
  id: string;
  title: string;
  /** The rule the case checks, and the module it lives in. */
  rule: string;
  module: string;
  /** Settings files, in order: an object is written as JSON, a string as is (e.g. unparsable text). */
  settings: Array<Record<string, unknown> | string>;
  /** A skill's frontmatter `hooks`, loaded as a skill (library: loadFrontmatterHooks; session: addSkill). */
  skillHooks?: Record<string, unknown>;
  /** Engine options only an embedding host gives (library and session doors). */
  hostOptions?: { validateToolInput?: (tool: string, input: Record<string, unknown>) => { ok: true } | { ok: false; error: string } };
  /** The permission mode the host chose (RunContext.permissionMode; library and session doors). */
  hostPermissionMode?: string;
  steps: Step[];
  doors: Partial<Record<DoorName, Cell>>;
  mutant: Mutant;
}

const command = (cmd: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command: cmd, ...extra });
const hookOut = (event: string, fields: Record<string, unknown>) =>
  `echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: event, ...fields } })}'`;
const pre = (matcher: string, ...hooks: Array<Record<string, unknown>>) => ({ hooks: { PreToolUse: [{ matcher, hooks }] } });
const bash = (cmd = 'ls') => ({ tool_name: 'Bash', tool_input: { command: cmd } });

/** Why the doors that take only an agent's payload cannot carry a host-only input. */
const HOST_ONLY = (what: string): Cell => ({ kind: 'n/a', why: `${what} is given by an embedding host; this door has no way to pass it` });
const ONE_EVENT = (why: string): Cell => ({ kind: 'n/a', why });
const NO_SKILLS: Cell = {
  kind: 'n/a',
  why: 'a skill’s hooks enter a live session when the skill is invoked; this door loads settings files only',
};
const CLAUDE_NO_PATCH: Cell = {
  kind: 'n/a',
  why: 'Claude Code has no patch tool: its agents never send ApplyPatch (codex carries the row)',
};

export const ENV_PATCH = '*** Begin Patch\n*** Add File: .env\n+SECRET=1\n*** End Patch';
const STOP_RUNS = 12;

export const CASES: ConformanceCase[] = [
  {
    id: 'patch-views',
    title: 'an Edit|Write guard sees each file of a patch',
    rule: 'a patch’s per-file views: a hook selecting Edit/Write (not ApplyPatch) runs on each file an ApplyPatch touches',
    module: 'src/engine/plan-views.ts (planned), src/reduce/reduce.ts (judged)',
    settings: [pre('Edit|Write', command(`grep -q '"file_path":"[^"]*\\.env"' && { echo 'protected file .env' >&2; exit 2; }; exit 0`))],
    steps: [
      {
        event: 'PreToolUse',
        payload: { tool_name: 'ApplyPatch', tool_input: { command: ENV_PATCH } },
        expect: { decision: 'deny', blocked: true, reason: /protected file \.env/ },
      },
    ],
    doors: { 'dispatch-claude': CLAUDE_NO_PATCH },
    mutant: {
      file: 'engine/plan-views.ts',
      find: "return input.tool_name === 'ApplyPatch' && eventFacts(event).matcher?.field === 'tool_name';",
      replace: 'return false;',
      removes: 'isPatchFiring returns false: no firing is seen as a patch',
    },
  },
  {
    id: 'ask-reported-bypass',
    title: 'an ask under a reported bypass mode is denied',
    rule: 'a PreToolUse ask under a bypass mode only reported in the payload is denied with the reason (nobody will be asked)',
    module: 'src/reduce/reduce.ts (reduce, askUnderReportedBypass)',
    settings: [pre('Bash', command(hookOut('PreToolUse', { permissionDecision: 'ask', permissionDecisionReason: 'confirm this' })))],
    steps: [
      {
        event: 'PreToolUse',
        payload: { ...bash(), permission_mode: 'bypassPermissions' },
        expect: { decision: 'deny', blocked: true, reason: /bypassPermissions mode.*confirm this/ },
      },
    ],
    doors: {},
    mutant: {
      file: 'reduce/reduce.ts',
      find: "if (verdict === 'ask' && ctx.modeChosen === false && askMeetsBypass(event, ctx.permissionMode)) {",
      replace: 'if (false) {',
      removes: 'the reported-bypass branch of reduce',
    },
  },
  {
    id: 'ask-chosen-bypass',
    title: 'control: an ask under a bypass the host chose is allowed',
    rule: 'a bypass mode the host passes (RunContext.permissionMode) turns a PreToolUse ask into allow',
    module: 'src/reduce/reduce.ts (effectiveVerdict)',
    settings: [pre('Bash', command(hookOut('PreToolUse', { permissionDecision: 'ask', permissionDecisionReason: 'confirm this' })))],
    hostPermissionMode: 'bypassPermissions',
    steps: [{ event: 'PreToolUse', payload: bash(), expect: { decision: 'allow', blocked: false, reason: /confirm this/ } }],
    doors: {
      run: HOST_ONLY('a chosen permission mode (RunContext.permissionMode)'),
      test: HOST_ONLY('a chosen permission mode (RunContext.permissionMode)'),
      'dispatch-claude': HOST_ONLY('a chosen permission mode (RunContext.permissionMode)'),
      'dispatch-codex': HOST_ONLY('a chosen permission mode (RunContext.permissionMode)'),
      server: HOST_ONLY('a chosen permission mode (RunContext.permissionMode)'),
      remote: HOST_ONLY('a chosen permission mode (RunContext.permissionMode)'),
    },
    mutant: {
      file: 'reduce/reduce.ts',
      find: "if (verdict === 'ask' && modeChosen && askMeetsBypass(event, permissionMode)) verdict = 'allow';",
      replace: '',
      removes: 'a chosen bypass no longer turns ask into allow',
    },
  },
  {
    id: 'stop-cap',
    title: `${STOP_RUNS} Stop events in one session, a hook that always blocks`,
    rule: 'the Stop/SubagentStop continuation cap: after 8 blocks in a row the agent is let stop, and the count starts again',
    module: 'src/reduce/reduce.ts (capContinuation), counters in a SessionCounterStore (src/engine/session-counters.ts)',
    settings: [{ hooks: { Stop: [{ hooks: [command("echo 'not done yet' >&2; exit 2")] }] } }],
    steps: Array.from({ length: STOP_RUNS }, (_, i) => ({
      event: 'Stop' as const,
      payload: { stop_hook_active: i > 0 },
      // Blocks 1–8; the 9th is let stop (the count goes back to 0), so 10–12 block again.
      expect: i === 8 ? { blocked: false } : { decision: 'block' as const, blocked: true, reason: /not done yet/ },
    })),
    doors: {
      run: ONE_EVENT('one event per process and no session kept between runs: a hook author’s tool, not an agent’s session'),
      test: ONE_EVENT('each fixture case is one event on a fresh engine'),
    },
    mutant: {
      file: 'reduce/reduce.ts',
      find: 'if (!decision.blocked || before + 1 <= cap) return;',
      replace: 'return;',
      removes: 'capContinuation returns at once',
    },
  },
  {
    id: 'once',
    title: 'a skill hook with once: true runs once per session',
    rule: '`once` skill hooks are claimed in the session’s counters before they run',
    module: 'src/engine/run-hooks.ts (claimOnce)',
    settings: [],
    skillHooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            command(hookOut('PreToolUse', { permissionDecision: 'deny', permissionDecisionReason: 'first call only' }), { once: true }),
          ],
        },
      ],
    },
    steps: [
      { event: 'PreToolUse', payload: bash(), expect: { decision: 'deny', blocked: true, reason: /first call only/ } },
      { event: 'PreToolUse', payload: bash(), expect: { blocked: false } },
    ],
    doors: {
      run: NO_SKILLS,
      test: NO_SKILLS,
      'dispatch-claude': NO_SKILLS,
      'dispatch-codex': NO_SKILLS,
      server: NO_SKILLS,
      remote: NO_SKILLS,
    },
    mutant: {
      file: 'engine/run-hooks.ts',
      find: 'if (!planned.some((p) => isOnce(p.hook))) return planned;',
      replace: 'return planned;',
      removes: 'claimOnce returns every planned hook',
    },
  },
  {
    id: 'rewrite',
    title: 'a hook’s updatedInput is applied',
    rule: 'a PreToolUse rewrite (updatedInput) becomes the call’s input',
    module: 'src/reduce/reduce.ts (collectOutputs)',
    settings: [pre('Bash', command(hookOut('PreToolUse', { permissionDecision: 'allow', updatedInput: { command: 'ls -la' } })))],
    steps: [
      { event: 'PreToolUse', payload: bash('ls'), expect: { decision: 'allow', blocked: false, updatedInput: { command: 'ls -la' } } },
    ],
    doors: {},
    mutant: {
      file: 'reduce/reduce.ts',
      find: 'if (parsed.updatedInput && !entry.view && entry.invalidRewrite === undefined) decision.updatedInput = parsed.updatedInput;',
      replace: '',
      removes: 'a rewrite is never put on the Decision',
    },
  },
  {
    id: 'invalid-rewrite',
    title: 'a rewrite the host’s validator refuses denies',
    rule: 'an updatedInput refused by validateToolInput is a deny with the reason, never a silent fallback',
    module: 'src/engine/run-hooks.ts (judge), src/reduce/reduce.ts (refusedRewrite)',
    settings: [pre('Bash', command(hookOut('PreToolUse', { permissionDecision: 'allow', updatedInput: { cmd: 'ls' } })))],
    hostOptions: {
      validateToolInput: (_tool, input) => (typeof input.command === 'string' ? { ok: true } : { ok: false, error: 'command is required' }),
    },
    steps: [
      { event: 'PreToolUse', payload: bash('ls'), expect: { decision: 'deny', blocked: true, reason: /invalidly: command is required/ } },
    ],
    doors: {
      run: HOST_ONLY('the tool-input validator (engine option validateToolInput)'),
      test: HOST_ONLY('the tool-input validator (engine option validateToolInput)'),
      'dispatch-claude': HOST_ONLY('the tool-input validator (engine option validateToolInput)'),
      'dispatch-codex': HOST_ONLY('the tool-input validator (engine option validateToolInput)'),
      server: HOST_ONLY('the tool-input validator (engine option validateToolInput)'),
      remote: HOST_ONLY('the tool-input validator (engine option validateToolInput)'),
    },
    mutant: {
      file: 'engine/run-hooks.ts',
      find: 'if (!v.ok) entry.invalidRewrite =',
      replace: 'if (false) entry.invalidRewrite =',
      removes: 'the invalidRewrite check is dropped',
    },
  },
  {
    id: 'output-replacement',
    title: 'PostToolUse replaces the tool output',
    rule: 'a PostToolUse hook’s updatedToolOutput replaces what the model sees',
    module: 'src/parse/output.ts (read), src/reduce/reduce.ts (collectOutputs)',
    settings: [
      { hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [command(hookOut('PostToolUse', { updatedToolOutput: '[redacted]' }))] }] } },
    ],
    steps: [
      {
        event: 'PostToolUse',
        payload: { ...bash('cat secrets'), tool_response: { stdout: 's3cret', stderr: '' } },
        expect: { blocked: false, updatedOutput: '[redacted]' },
      },
    ],
    doors: {
      'dispatch-codex': {
        kind: 'translated',
        why: 'Codex replaces only MCP tool output: the output is withheld (decision block) with the replacement in the reason',
        expect: [{ decision: 'block', blocked: true, reason: /withheld.*Replacement: \[redacted\]/s }],
      },
    },
    mutant: {
      file: 'reduce/reduce.ts',
      find: 'if (parsed.updatedOutput !== undefined) decision.updatedOutput = parsed.updatedOutput;',
      replace: '',
      removes: 'a replaced output is never put on the Decision',
    },
  },
  failing(
    'ignore',
    { blocked: false },
    {
      file: 'reduce/reduce.ts',
      find: "if (behavior === 'ignore') return undefined;",
      replace: "if (behavior === 'ignore') return 'deny';",
      removes: 'ignore fails closed like deny',
    },
  ),
  failing('ask', { decision: 'ask', blocked: false, reason: /failed.*failureBehavior: ask/ }, FAILURE_POLICY_MUTANT()),
  failing('deny', { decision: 'deny', blocked: true, reason: /failed.*failureBehavior: deny/ }, FAILURE_POLICY_MUTANT()),
  {
    id: 'timeout-deny',
    title: 'a hook that times out, under timeoutBehavior: deny',
    rule: 'a timed-out hook is killed at its timeout and its timeout policy decides',
    module: 'src/reduce/reduce.ts (effectiveVerdict)',
    settings: [{ agentHooks: { timeoutBehavior: 'deny' }, ...pre('Bash', command('sleep 5', { timeout: 1 })) }],
    steps: [
      { event: 'PreToolUse', payload: bash(), expect: { decision: 'deny', blocked: true, reason: /timed out \(timeoutBehavior: deny\)/ } },
    ],
    doors: {},
    mutant: {
      file: 'reduce/reduce.ts',
      find: "policy = parsed.outcome === 'timeout' ? entry.timeoutBehavior : entry.failureBehavior;",
      replace: 'policy = entry.failureBehavior;',
      removes: 'a timeout is judged by the failure policy (default ignore) instead of its own',
    },
  },
  {
    id: 'broken-source',
    title: 'a broken settings file beside one that denies',
    rule: 'an unparsable source is skipped with an error; the other sources still decide, so their deny is never lost',
    module: 'src/config/load.ts (readLayers)',
    settings: ['{ "hooks": { this is not JSON', pre('Bash', command("echo 'team policy: no' >&2; exit 2"))],
    steps: [{ event: 'PreToolUse', payload: bash(), expect: { decision: 'deny', blocked: true, reason: /team policy: no/ } }],
    doors: {
      test: {
        kind: 'refuses',
        why: '`agent-hooks test` reports a case whose config has an error as an error (the case does not run)',
        error: /config error: .*settings-0\.json/,
      },
      server: {
        kind: 'refuses',
        why: 'the policy server never serves a config with an error (it keeps the version it serves, or does not start)',
        error: /the team config failed to load/,
      },
      remote: {
        kind: 'n/a',
        why: 'the policy server refuses the config (server row); with no server, dispatch --remote falls back to its local failure policy',
      },
    },
    mutant: {
      file: 'config/load.ts',
      find: '    layers.push(layer);\n    files.push({ file: c.file, kind: c.kind, ok: layer.data !== undefined });',
      replace: '    if (layer.data === undefined) return [];\n    layers.push(layer);',
      removes: 'one unparsable file drops every settings layer',
    },
  },
];

function FAILURE_POLICY_MUTANT(): Mutant {
  return {
    file: 'reduce/reduce.ts',
    find: "policy = parsed.outcome === 'timeout' ? entry.timeoutBehavior : entry.failureBehavior;",
    replace: "policy = parsed.outcome === 'timeout' ? entry.timeoutBehavior : 'ignore';",
    removes: 'the configured failure policy is not applied (every failure is ignored)',
  };
}

/** A hook that exits 1 under `agentHooks.failureBehavior: behavior`. */
function failing(behavior: 'ignore' | 'ask' | 'deny', expect: Expected, mutant: Mutant): ConformanceCase {
  const codexAsk: Partial<Record<DoorName, Cell>> =
    behavior === 'ask'
      ? {
          'dispatch-codex': {
            kind: 'translated',
            why: 'Codex hooks cannot ask the user: an ask is answered as a deny with the reason',
            expect: [{ decision: 'deny', blocked: true, reason: /cannot ask the user.*failureBehavior: ask/ }],
          },
        }
      : {};
  return {
    id: `failure-${behavior}`,
    title: `a failing hook (exit 1) under failureBehavior: ${behavior}`,
    rule: `a hook error under failureBehavior ${behavior}: ${behavior === 'ignore' ? 'non-blocking, the call proceeds' : `the call is ${behavior === 'ask' ? 'put to the user' : 'denied'}`}`,
    module: 'src/reduce/reduce.ts (effectiveVerdict, policyVerdict)',
    settings: [{ agentHooks: { failureBehavior: behavior }, ...pre('Bash', command("echo 'boom' >&2; exit 1")) }],
    steps: [{ event: 'PreToolUse', payload: bash(), expect }],
    doors: codexAsk,
    mutant,
  };
}

/** The cell of a door for a case (carried with the case's expectation when the case names none). */
export function cellOf(c: ConformanceCase, door: DoorName): Cell | undefined {
  return c.doors[door];
}

/** The expectation of a step at a door (its translation, if any). */
export function expectedAt(c: ConformanceCase, door: DoorName): Expected[] {
  const cell = c.doors[door];
  return cell?.kind === 'translated' ? cell.expect : c.steps.map((s) => s.expect);
}
