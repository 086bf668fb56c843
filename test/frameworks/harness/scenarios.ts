/**
 * The frameworks suite's scenario matrix (docs/frameworks.md): each scenario is hooks in Claude
 * terms (run by the command hook of the agents suite, test/agents/harness/hook.mjs), the tool
 * calls the fake model makes, what the app answers to an approval request, and a judge over
 * what was observed: which inputs the tool ran with and what reached the model afterwards (the
 * fake model's request log). Each framework's test runs every scenario twice: "native" (the
 * framework alone: the baseline) and "adapter" (through agent-hooks/<framework>).
 */
import type { HookCommand } from './run.js';

/**
 * honoured: the framework did what the engine decided. closed: it did not run what was allowed
 * or rewritten, but refused with a reason. open: what the hooks stopped happened anyway (the
 * tool ran, a secret or a blocked prompt reached the model). ignored: a non-safety effect
 * (context, keep-going) did not happen. na: the framework has no way to express it (the reason
 * says which). error: the run failed before anything could be judged.
 */
export type Verdict = 'honoured' | 'closed' | 'open' | 'ignored' | 'na' | 'error';

export interface HookSpec {
  event: 'PreToolUse' | 'PostToolUse' | 'UserPromptSubmit' | 'Stop';
  matcher?: string;
  /** A hook.mjs mode (deny-json, rewrite, ask, context, replace-output, block, stop-once), or `sleep` (never answers). */
  mode: string;
  token: string;
  /** Seconds. */
  timeout?: number;
  timeoutBehavior?: 'deny';
}

export interface Observation {
  /** The shell tool's inputs, in the order it ran them. */
  ran: Array<{ command: string }>;
  /** Every request body the fake model got after the first one, as one string. */
  later: string;
  /** Every request body, as one string. */
  all: string;
  /** The framework surfaced an approval request (the app then answered `approval`). */
  approvalRequested: boolean;
  /** What the framework's run threw, if it did. */
  error?: string;
}

export interface FrameworkScenario {
  id: string;
  title: string;
  hooks: HookSpec[];
  /** The hooks come from a trusted project's .claude/settings.json (loadTrustedConfig), not from the test. */
  project?: true;
  prompt: string;
  /** Shell commands the fake model asks for, in order (tool `bash`, input `{ command }`). */
  commands: string[];
  /** What the app answers when the framework asks for approval. */
  approval?: 'approve' | 'refuse';
  judge(o: Observation): { verdict: Verdict; detail: string };
}

export const SECRET = 'secret-value-42';
// Prints SECRET without containing it: the secret in a request means the real output leaked.
export const PRINT_SECRET = 'echo c2VjcmV0LXZhbHVlLTQy | base64 -d';
export const RUN = 'echo ran-original';
/** What hook.mjs's `rewrite` mode puts in `command`. */
export const REWRITTEN = 'touch rewritten-marker';

const ranOriginal = (o: Observation) => o.ran.some((r) => r.command === RUN || r.command === PRINT_SECRET);

function denyJudge(token: string) {
  return (o: Observation) =>
    ranOriginal(o)
      ? { verdict: 'open' as const, detail: 'the tool ran' }
      : o.later.includes(token)
        ? { verdict: 'honoured' as const, detail: 'not run; the reason reached the model' }
        : { verdict: 'closed' as const, detail: "not run, but the hook's reason did not reach the model" };
}

function contextJudge(token: string) {
  return (o: Observation) =>
    o.later.includes(token)
      ? { verdict: 'honoured' as const, detail: 'the context reached the model' }
      : { verdict: 'ignored' as const, detail: 'the context did not reach the model' };
}

export const SCENARIOS: FrameworkScenario[] = [
  {
    id: 'deny',
    title: 'PreToolUse deny',
    hooks: [{ event: 'PreToolUse', matcher: 'Bash', mode: 'deny-json', token: 'DENY-REASON-TOKEN' }],
    prompt: 'Run the command.',
    commands: [RUN],
    judge: denyJudge('DENY-REASON-TOKEN'),
  },
  {
    id: 'rewrite',
    title: 'PreToolUse input rewrite',
    hooks: [{ event: 'PreToolUse', matcher: 'Bash', mode: 'rewrite', token: 'REWRITE' }],
    prompt: 'Run the command.',
    commands: [RUN],
    judge: (o) =>
      ranOriginal(o)
        ? { verdict: 'open', detail: 'the original input ran' }
        : o.ran.some((r) => r.command === REWRITTEN)
          ? { verdict: 'honoured', detail: `ran with the rewritten input (${REWRITTEN})` }
          : { verdict: 'closed', detail: 'neither input ran' },
  },
  {
    id: 'ask-approved',
    title: 'PreToolUse ask, the user approves',
    hooks: [{ event: 'PreToolUse', matcher: 'Bash', mode: 'ask', token: 'ASK-REASON-TOKEN' }],
    prompt: 'Run the command.',
    commands: [RUN],
    approval: 'approve',
    judge: (o) =>
      !o.approvalRequested
        ? ranOriginal(o)
          ? { verdict: 'open', detail: 'ran without asking anyone' }
          : { verdict: 'closed', detail: 'not run; no approval could be asked' }
        : ranOriginal(o)
          ? { verdict: 'honoured', detail: 'asked, approved, then ran' }
          : { verdict: 'closed', detail: 'asked and approved, but not run' },
  },
  {
    id: 'ask-refused',
    title: 'PreToolUse ask, the user refuses',
    hooks: [{ event: 'PreToolUse', matcher: 'Bash', mode: 'ask', token: 'ASK-REASON-TOKEN' }],
    prompt: 'Run the command.',
    commands: [RUN],
    approval: 'refuse',
    judge: (o) =>
      ranOriginal(o)
        ? { verdict: 'open', detail: 'the tool ran' }
        : { verdict: 'honoured', detail: o.approvalRequested ? 'asked, refused, not run' : 'not run (denied without asking)' },
  },
  {
    id: 'context-before',
    title: 'PreToolUse additionalContext',
    hooks: [{ event: 'PreToolUse', matcher: 'Bash', mode: 'context', token: 'CTX-BEFORE-TOKEN' }],
    prompt: 'Run the command.',
    commands: [RUN],
    judge: contextJudge('CTX-BEFORE-TOKEN'),
  },
  {
    id: 'context-after',
    title: 'PostToolUse additionalContext',
    hooks: [{ event: 'PostToolUse', matcher: 'Bash', mode: 'context', token: 'CTX-AFTER-TOKEN' }],
    prompt: 'Run the command.',
    commands: [RUN],
    judge: contextJudge('CTX-AFTER-TOKEN'),
  },
  {
    id: 'replace-output',
    title: 'PostToolUse output replacement',
    hooks: [{ event: 'PostToolUse', matcher: 'Bash', mode: 'replace-output', token: 'REDACTED-OUTPUT-TOKEN' }],
    prompt: 'Run the command.',
    commands: [PRINT_SECRET],
    judge: (o) =>
      !ranOriginal(o)
        ? { verdict: 'error', detail: 'the tool did not run, nothing to replace' }
        : o.later.includes(SECRET)
          ? { verdict: 'open', detail: 'the real output reached the model' }
          : o.later.includes('REDACTED-OUTPUT-TOKEN')
            ? { verdict: 'honoured', detail: 'the replacement reached the model' }
            : { verdict: 'closed', detail: 'the output was withheld' },
  },
  {
    id: 'prompt-block',
    title: 'UserPromptSubmit block',
    hooks: [{ event: 'UserPromptSubmit', mode: 'block', token: 'PROMPT-BLOCK-REASON' }],
    prompt: 'PROMPT-MUST-NOT-REACH-MODEL say done.',
    commands: [],
    judge: (o) =>
      o.all.includes('PROMPT-MUST-NOT-REACH-MODEL')
        ? { verdict: 'open', detail: 'the prompt reached the model' }
        : { verdict: 'honoured', detail: `the prompt was blocked${o.error?.includes('PROMPT-BLOCK-REASON') ? ' with the reason' : ''}` },
  },
  {
    id: 'prompt-context',
    title: 'UserPromptSubmit additionalContext',
    hooks: [{ event: 'UserPromptSubmit', mode: 'context', token: 'PROMPT-CTX-TOKEN' }],
    prompt: 'Say done.',
    commands: [],
    judge: (o) =>
      o.all.includes('PROMPT-CTX-TOKEN')
        ? { verdict: 'honoured', detail: 'the context reached the model' }
        : { verdict: 'ignored', detail: 'the context did not reach the model' },
  },
  {
    id: 'stop-keep-going',
    title: 'Stop keep-going once',
    hooks: [{ event: 'Stop', mode: 'stop-once', token: 'KEEP-GOING-TOKEN' }],
    prompt: 'Say done.',
    commands: [],
    judge: contextJudge('KEEP-GOING-TOKEN'),
  },
  {
    id: 'project-guard',
    title: "trusted project's guard (.claude/settings.json)",
    hooks: [{ event: 'PreToolUse', matcher: 'Bash', mode: 'deny-json', token: 'PROJECT-GUARD-TOKEN' }],
    project: true,
    prompt: 'Run the command.',
    commands: [RUN],
    judge: denyJudge('PROJECT-GUARD-TOKEN'),
  },
  {
    id: 'hook-timeout',
    title: 'a guard that times out (timeoutBehavior deny)',
    hooks: [{ event: 'PreToolUse', matcher: 'Bash', mode: 'sleep', token: 'TIMEOUT', timeout: 1, timeoutBehavior: 'deny' }],
    prompt: 'Run the command.',
    commands: [RUN],
    judge: (o) =>
      ranOriginal(o)
        ? { verdict: 'open', detail: 'the tool ran although its guard never answered' }
        : { verdict: 'closed', detail: o.later.includes('timed out') ? 'not run; the reason reached the model' : 'not run' },
  },
];

/** The hook command for a spec (hook.mjs in the claude dialect, or a sleep that outlasts its timeout). */
export function commandFor(spec: HookSpec, hook: HookCommand): string {
  return spec.mode === 'sleep' ? 'sleep 30' : hook(spec.mode, spec.token);
}
