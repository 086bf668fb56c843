/**
 * The silent mistakes every load reports (loadConfig's diagnostics, so `check`, `doctor`, `run`,
 * `list`, `dispatch` and the library all see them; docs/authoring.md, "Mistakes in the config"):
 * invalid regex matchers and `if` rules (the hook never runs), ones the linear-time engine cannot
 * run (an error: the hook fails closed), a tool name whose case differs from the agent's tool, an
 * MCP matcher that names a server but no tool, and a timeout in seconds that reads as milliseconds.
 *
 * Lean on purpose (dispatch loads it): the matcher compiler the engine loads anyway, and the `if`
 * parser only from its slot, filled when a hook has an `if` (loadConfig loads it then).
 */
import { eventFacts } from '../events/facts.js';
import { compileMatcher } from '../matching/matcher.js';
import { ifRules } from '../matching/rule-slot.js';
import type { Diagnostic, NormalizedHook } from '../types.js';

/** What the lint needs of a hook's agent: its tool names as its matchers see them, and its timeout unit. */
export interface DialectLintFacts {
  tools: readonly string[];
  timeoutUnit: 's' | 'ms';
  /** The agent's name, for what it does itself. */
  title?: string;
}

/**
 * Claude Code's built-in tools (reference, PreToolUse "Matches on tool name") and the ones this
 * engine names canonically (ApplyPatch): a matcher differing from one of them only in case never matches.
 */
const CLAUDE_TOOLS: readonly string[] = [
  'Agent',
  'ApplyPatch',
  'AskUserQuestion',
  'Bash',
  'BashOutput',
  'Edit',
  'ExitPlanMode',
  'Glob',
  'Grep',
  'KillShell',
  'LS',
  'MultiEdit',
  'NotebookEdit',
  'PowerShell',
  'Read',
  'Skill',
  'Task',
  'TodoWrite',
  'WebFetch',
  'WebSearch',
  'Write',
];

const CLAUDE_FACTS: DialectLintFacts = { tools: CLAUDE_TOOLS, timeoutUnit: 's', title: 'Claude Code' };

/**
 * Mistakes that make a hook silently not do what it says, one diagnostic each. `factsOf` gives
 * another agent's tool names and timeout unit for its hooks (`hook.dialect`); without it, or for
 * Claude's own hooks, Claude's apply.
 */
export function lintMistakes(hooks: readonly NormalizedHook[], factsOf?: (dialect: string) => DialectLintFacts | undefined): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const hook of hooks) {
    const at = { level: 'warning' as const, file: hook.source.file, path: hook.source.path };
    const facts = (hook.dialect && hook.dialect !== 'claude' && factsOf?.(hook.dialect)) || CLAUDE_FACTS;
    for (const d of [...lintMatching(hook), ...lintToolNames(hook, facts), ...lintTimeout(hook, facts), ...lintSwitchedOff(hook, facts)])
      out.push({ ...at, ...d });
  }
  return out;
}

type Finding = { level: 'warning' | 'error'; message: string };

/** Exact tool names in a tool event's matcher: a case-only difference from a known tool, an MCP server without a tool. */
function lintToolNames(hook: NormalizedHook, facts: DialectLintFacts): Finding[] {
  const spec = eventFacts(hook.event).matcher;
  if (spec?.field !== 'tool_name' || hook.matcher === undefined) return [];
  const m = compileMatcher(hook.matcher, spec.exactSet);
  if (m.kind !== 'exact' || !m.names) return [];
  const out: Finding[] = [];
  const tools = facts.tools.length > 0 ? facts.tools : CLAUDE_TOOLS;
  for (const name of m.names) {
    if (/^mcp__/.test(name) && !/^mcp__.+?__./.test(name)) {
      const server = name.replace(/__+$/, '');
      out.push({
        level: 'warning',
        message: `matcher ${JSON.stringify(name)} names an MCP server but no tool: it is compared as an exact tool name and matches nothing; write ${JSON.stringify(`${server}__.*`)} for every tool of that server`,
      });
      continue;
    }
    if (tools.includes(name)) continue;
    const lower = name.toLowerCase();
    const tool = tools.find((t) => t.toLowerCase() === lower);
    if (tool)
      out.push({
        level: 'warning',
        message: `matcher ${JSON.stringify(name)} never matches the tool ${JSON.stringify(tool)}: tool names are case-sensitive; write ${JSON.stringify(tool)}`,
      });
  }
  return out;
}

/** Sources an agent reads itself: the places discovery finds (its own files, plugins, skills). */
const AGENT_READ_KINDS: readonly string[] = ['managed', 'user', 'project', 'local', 'plugin', 'skill'];
/** A file named on the command line at an agent's own place: `.<agent>/settings(.local).json`, `.codex/hooks.json`, a plugin's `hooks/hooks.json`. */
const AGENT_OWN_FILE = /(^|[\\/])(\.[^\\/]+[\\/](settings(\.local)?|hooks)\.json|managed-settings\.json|hooks[\\/]hooks\.json)$/;

/**
 * `"enabled": false` is agent-hooks' switch; no agent has a per-hook one. In a file the agent
 * reads itself the hook still runs there (the readers that refuse the key warn on their own).
 */
function lintSwitchedOff(hook: NormalizedHook, facts: DialectLintFacts): Finding[] {
  if (hook.handler.enabled !== false) return [];
  const file = hook.source.file ?? '';
  if (!AGENT_READ_KINDS.includes(hook.source.kind) && !(hook.source.kind === 'cli' && AGENT_OWN_FILE.test(file))) return [];
  const agent = facts.title ?? 'the agent';
  return [
    {
      level: 'warning',
      message: `"enabled": false is honoured by agent-hooks only (run, dispatch, the library): ${agent} reads this file itself, has no per-hook switch and runs this hook; move it to a file only agent-hooks reads (the --settings of \`agent-hooks install\`) or delete it`,
    },
  ];
}

function humanSeconds(s: number): string {
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h} h${m ? ` ${m} min` : ''}` : `${m} min`;
}

/** A timeout of 1000 or more in a seconds dialect is most likely milliseconds (30000 = 8 h 20 min). */
function lintTimeout(hook: NormalizedHook, facts: DialectLintFacts): Finding[] {
  const t = (hook.handler as { timeout?: unknown }).timeout;
  if (facts.timeoutUnit !== 's' || typeof t !== 'number' || t < 1000) return [];
  return [
    {
      level: 'warning',
      message: `timeout ${t} is in seconds (${humanSeconds(t)}); if you meant milliseconds, write ${Math.max(1, Math.round(t / 1000))}`,
    },
  ];
}

const FAILS_CLOSED =
  'this hook reports an error instead of running: on an event that can block it denies (fails closed), elsewhere its failure policy applies';

/**
 * What is wrong with a hook's matcher and `if`: an invalid one never runs (a warning); one the
 * linear-time engine cannot run is a config error.
 */
function lintMatching(hook: NormalizedHook): Finding[] {
  const spec = eventFacts(hook.event);
  const out: Finding[] = [];
  if (spec.matcher && hook.matcher !== undefined) {
    const m = compileMatcher(hook.matcher, spec.matcher.exactSet);
    if (m.kind === 'invalid') {
      out.push({
        level: 'warning',
        message: `matcher ${JSON.stringify(hook.matcher)} is not a valid regular expression (${m.error ?? 'invalid'}); this hook never runs`,
      });
    } else if (m.refused) {
      out.push({ level: 'error', message: `${m.refused}; ${FAILS_CLOSED}. Rewrite it without backreferences or lookaround` });
    }
  }
  if (spec.ifCondition && hook.handler.if !== undefined) {
    const parseRule = ifRules()?.parseRule;
    if (!parseRule) return out; // not loaded: the engine reports the rule when it plans the hook
    const parsed = parseRule(hook.handler.if);
    if (parsed.ok) return out;
    if (parsed.unbounded)
      out.push({ level: 'error', message: `"if" ${parsed.error}; ${FAILS_CLOSED}. Rewrite it without extglob negations` });
    else
      out.push({
        level: 'warning',
        message: `"if" condition ${JSON.stringify(hook.handler.if)} is invalid (${parsed.error}); this hook never runs`,
      });
  }
  return out;
}
