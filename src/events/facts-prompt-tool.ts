/**
 * Event facts, part 1 in lifecycle order: session start, prompts, turns, display and the tool
 * events. Zod-free: facts.ts joins the parts and derives the rules; schemas.ts holds the schemas.
 *
 * Facts come from Claude Code's hooks reference (origin 'claude') and Kimi Code's extra events
 * (origin 'kimi'); the Kimi extras sit next to the Claude events they accompany.
 */
import type { EventFacts, HookTypeName } from './spec.js';

const TOOL_MATCHER = { field: 'tool_name', exactSet: 'standard' } as const;

/** Events where the reference allows command, http and mcp_tool but not prompt/agent; function hooks are ours and run everywhere. */
export const NO_LLM_HOOKS = ['command', 'http', 'mcp_tool', 'function'] as const satisfies readonly HookTypeName[];

export const PROMPT_AND_TOOL_FACTS = {
  SessionStart: {
    origin: 'claude',
    summary: 'A session begins or resumes.',
    matcher: { field: 'source', exactSet: 'standard' },
    ifCondition: false,
    decision: 'context',
    topLevelBlock: false,
    canBlock: false,
    exit2: 'user',
    plainStdout: 'context',
    universal: true,
    order: 'parallel',
    envFile: true,
    hookTypes: ['command', 'mcp_tool', 'function'],
  },

  Setup: {
    origin: 'claude',
    summary: 'Claude Code was launched with --init-only, or --init / --maintenance in -p mode.',
    matcher: { field: 'trigger', exactSet: 'standard' },
    ifCondition: false,
    decision: 'context',
    topLevelBlock: false,
    canBlock: false,
    exit2: 'user',
    // Plain stdout goes to the debug log only; context needs JSON additionalContext.
    plainStdout: 'log',
    universal: true,
    order: 'parallel',
    envFile: true,
    hookTypes: ['command', 'mcp_tool', 'function'],
  },

  InstructionsLoaded: {
    origin: 'claude',
    summary: 'A CLAUDE.md or rules file was loaded into context (at session start or lazily).',
    matcher: { field: 'load_reason', exactSet: 'standard' },
    ifCondition: false,
    decision: 'none',
    topLevelBlock: false,
    canBlock: false,
    exit2: 'ignore',
    plainStdout: 'log',
    universal: false,
    order: 'parallel',
    hookTypes: NO_LLM_HOOKS,
  },

  UserPromptSubmit: {
    origin: 'claude',
    summary: 'The user submitted a prompt, before the model sees it; can block it or add context.',
    matcher: null,
    ifCondition: false,
    decision: 'block',
    topLevelBlock: true,
    canBlock: true,
    exit2: 'block',
    plainStdout: 'context',
    universal: true,
    order: 'parallel',
    defaultTimeoutSec: 30,
  },

  UserPromptQueued: {
    origin: 'kimi',
    summary: 'A prompt was queued while the agent is busy (Kimi; observation only).',
    // Kimi matches prompt events against the prompt text.
    matcher: { field: 'prompt', exactSet: 'standard' },
    ifCondition: false,
    decision: 'none',
    topLevelBlock: false,
    canBlock: false,
    exit2: 'user',
    plainStdout: 'log',
    universal: false,
    order: 'parallel',
    hookTypes: NO_LLM_HOOKS,
  },

  UserPromptExpansion: {
    origin: 'claude',
    summary: 'A user-typed slash command or MCP prompt expands into a prompt; can block the expansion.',
    matcher: { field: 'command_name', exactSet: 'standard' },
    ifCondition: false,
    decision: 'block',
    topLevelBlock: true,
    canBlock: true,
    exit2: 'block',
    plainStdout: 'context',
    universal: true,
    order: 'parallel',
  },

  TurnStarted: {
    origin: 'kimi',
    summary: 'A new agent turn begins (Kimi; observation only).',
    matcher: null,
    ifCondition: false,
    decision: 'none',
    topLevelBlock: false,
    canBlock: false,
    exit2: 'user',
    plainStdout: 'log',
    universal: false,
    order: 'parallel',
    hookTypes: NO_LLM_HOOKS,
  },

  MessageDisplay: {
    origin: 'claude',
    summary: 'A batch of assistant message text is about to be displayed; can replace what is shown.',
    matcher: null,
    ifCondition: false,
    decision: 'display',
    topLevelBlock: false,
    canBlock: false,
    // On failure (exit 2 included) the original text is displayed.
    exit2: 'ignore',
    plainStdout: 'log',
    universal: false,
    order: 'parallel',
    defaultTimeoutSec: 10,
    hookTypes: NO_LLM_HOOKS,
  },

  PreToolUse: {
    origin: 'claude',
    summary: 'Before a tool call executes; can allow, deny, ask, defer or rewrite its input.',
    matcher: TOOL_MATCHER,
    ifCondition: true,
    decision: 'permission',
    // Top-level decision is deprecated here: "approve"/"block" map to allow/deny under the 'permission' model.
    topLevelBlock: false,
    canBlock: true,
    exit2: 'block',
    plainStdout: 'log',
    universal: true,
    order: 'serial',
    // Blade's rule, opt-in: plan mode skips the tool hooks (Claude Code fires them in plan mode).
    planModeSkip: true,
    // yolo/bypassPermissions: an ask becomes allow when the host chose the mode, a deny when the agent only reported it (reduce).
    bypassAsk: true,
    // A prompt hook's ok:false denies the call and ends the turn (only denies when fed back).
    llmVerdict: 'deny',
  },

  PermissionRequest: {
    origin: 'claude',
    summary: "A permission dialog is about to be shown; hooks may allow or deny on the user's behalf.",
    matcher: TOOL_MATCHER,
    ifCondition: true,
    decision: 'permission-request',
    topLevelBlock: false,
    // Exit 2 is not honoured, but decision.behavior "deny" stops the call.
    canBlock: true,
    exit2: 'ignore',
    plainStdout: 'log',
    universal: true,
    order: 'serial',
    llmVerdict: 'ignored',
  },

  PermissionResult: {
    origin: 'kimi',
    summary: 'A permission request was resolved (Kimi; observation only).',
    matcher: TOOL_MATCHER,
    // `if` is evaluated only on Claude's five tool events.
    ifCondition: false,
    decision: 'none',
    topLevelBlock: false,
    canBlock: false,
    exit2: 'ignore',
    plainStdout: 'log',
    universal: false,
    order: 'parallel',
    hookTypes: NO_LLM_HOOKS,
  },

  PostToolUse: {
    origin: 'claude',
    summary: 'After a tool call succeeds; can give feedback, add context or replace the tool output.',
    matcher: TOOL_MATCHER,
    ifCondition: true,
    decision: 'block',
    topLevelBlock: true,
    // The tool already ran; a block only adds the reason next to the result.
    canBlock: false,
    exit2: 'feedback',
    plainStdout: 'log',
    universal: true,
    order: 'parallel',
    planModeSkip: true,
    llmVerdict: 'block-or-end',
  },

  PostToolUseFailure: {
    origin: 'claude',
    summary: 'After a started tool call fails; can give feedback or add context.',
    matcher: TOOL_MATCHER,
    ifCondition: true,
    decision: 'block',
    topLevelBlock: true,
    canBlock: false,
    exit2: 'feedback',
    plainStdout: 'log',
    universal: true,
    order: 'parallel',
  },

  PostToolBatch: {
    origin: 'claude',
    summary: 'After every tool call of a batch resolved, before the next model call; can stop the loop.',
    matcher: null,
    ifCondition: false,
    decision: 'block',
    topLevelBlock: true,
    canBlock: true,
    exit2: 'block',
    plainStdout: 'log',
    universal: true,
    order: 'parallel',
  },

  PermissionDenied: {
    origin: 'claude',
    summary: 'Auto mode denied a tool call; a hook may tell the model it can retry.',
    matcher: TOOL_MATCHER,
    ifCondition: true,
    decision: 'retry',
    topLevelBlock: false,
    canBlock: false,
    // The denial already happened; exit code and stderr are ignored.
    exit2: 'ignore',
    plainStdout: 'log',
    universal: true,
    order: 'parallel',
    llmVerdict: 'ignored',
  },
} as const satisfies Record<string, EventFacts>;
