/**
 * The scenario matrix: what the model asks for, which hook answers what (in Claude terms, as
 * the engine config under dispatch has it), and how the observed run is judged. Each scenario
 * runs twice per agent: with the hook in the agent's own config ("native") and through
 * `agent-hooks dispatch --agent D` ("dispatch").
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { RunDirs, RunOutcome, ToolCall } from './run.js';

/** A hook in canonical (Claude) terms. */
export interface HookSpec {
  event: 'PreToolUse' | 'PostToolUse' | 'Stop' | 'UserPromptSubmit' | 'SessionStart' | 'PermissionRequest';
  /** Claude matcher; undefined = every tool / source. */
  matcher?: string;
  /** hook.mjs mode. */
  mode: string;
  token: string;
}

/**
 * honoured: the agent did what the hook decided. closed: it did not run what the hook allowed
 * or rewrote, but refused with a reason (the fail-closed answer). open: what the hook stopped
 * happened anyway (a command ran, a secret or a blocked prompt reached the model, .env was
 * written). ignored: a non-safety effect (context, keep-going, allow) did not happen. na: the
 * agent has no native way to express it. unfired: the agent never ran the hook (natively: the
 * hook program got nothing; under dispatch: the dispatch line never ran), so neither config
 * could act. error: the run itself failed, nothing to judge.
 */
export type Verdict = 'honoured' | 'closed' | 'open' | 'ignored' | 'unfired' | 'na' | 'error' | 'skipped';

/** The tools an agent's model can call, in the agent's own vocabulary. */
export interface AgentTools {
  shell(command: string): ToolCall;
  /** The agent's own file-writing tool on `path`, or null if it has none the model can call. */
  writeFile(path: string, content: string): ToolCall | null;
}

export interface Observation {
  dirs: RunDirs;
  outcome: RunOutcome;
  /** Request bodies after the first tool result, as one string: what reached the model later. */
  allRequests: string;
  ran: boolean;
  rewritten: boolean;
  envWritten: boolean;
}

export interface Scenario {
  id: string;
  title: string;
  hooks: HookSpec[];
  /** Run in the agent's most permissive mode that still fires hooks (else its headless default). */
  permissive: boolean;
  prompt: string;
  calls(tools: AgentTools, dirs: RunDirs): ToolCall[] | null;
  judge(obs: Observation): { verdict: Verdict; detail: string };
  /** Only for these agents (PermissionRequest is Claude's). */
  only?: string[];
  /** Under dispatch, the dispatch line names a copy of the package missing its hook-running bundle file (run.ts `brokenInstall`). */
  brokenInstall?: true;
}

export const SECRET = 'secret-value-42';
// The command prints SECRET without containing it, so the secret in a request means the output leaked.
const PRINT_SECRET = 'echo c2VjcmV0LXZhbHVlLTQy | base64 -d; echo; touch ran-marker';
const RUN = 'touch ran-marker; echo hi';

const has = (obs: Observation, token: string) => obs.allRequests.includes(token);

function denyJudge(token: string) {
  return (o: Observation) =>
    o.ran
      ? { verdict: 'open' as const, detail: 'the command ran' }
      : {
          verdict: 'honoured' as const,
          detail: has(o, token) ? 'not run; reason reached the model' : 'not run; reason not seen by the model',
        };
}

function contextJudge(token: string) {
  return (o: Observation) =>
    has(o, token)
      ? { verdict: 'honoured' as const, detail: 'context reached the model' }
      : { verdict: 'ignored' as const, detail: 'context did not reach the model' };
}

export const SCENARIOS: Scenario[] = [
  {
    id: 'baseline',
    title: 'no hook: the command runs (control)',
    hooks: [],
    permissive: true,
    prompt: 'Run the shell command.',
    calls: (t) => [t.shell(RUN)],
    judge: (o) =>
      o.ran ? { verdict: 'honoured', detail: 'the command ran' } : { verdict: 'error', detail: 'the command did not run without any hook' },
  },
  {
    id: 'deny-exit2',
    title: 'deny by exit 2',
    hooks: [{ event: 'PreToolUse', matcher: 'Bash', mode: 'deny-exit2', token: 'DENY-EXIT2-REASON' }],
    permissive: true,
    prompt: 'Run the shell command.',
    calls: (t) => [t.shell(RUN)],
    judge: denyJudge('DENY-EXIT2-REASON'),
  },
  {
    id: 'deny-json',
    title: 'deny by JSON',
    hooks: [{ event: 'PreToolUse', matcher: 'Bash', mode: 'deny-json', token: 'DENY-JSON-REASON' }],
    permissive: true,
    prompt: 'Run the shell command.',
    calls: (t) => [t.shell(RUN)],
    judge: denyJudge('DENY-JSON-REASON'),
  },
  {
    id: 'allow',
    title: 'allow (headless default mode)',
    hooks: [{ event: 'PreToolUse', matcher: 'Bash', mode: 'allow', token: 'ALLOW-REASON' }],
    permissive: false,
    prompt: 'Run the shell command.',
    calls: (t) => [t.shell(RUN)],
    judge: (o) => (o.ran ? { verdict: 'honoured', detail: 'the command ran' } : { verdict: 'closed', detail: 'not run' }),
  },
  {
    id: 'ask-headless',
    title: 'ask (headless default mode)',
    hooks: [{ event: 'PreToolUse', matcher: 'Bash', mode: 'ask', token: 'ASK-REASON' }],
    permissive: false,
    prompt: 'Run the shell command.',
    calls: (t) => [t.shell(RUN)],
    judge: denyJudge('ASK-REASON'),
  },
  {
    id: 'ask-permissive',
    title: 'ask (most permissive mode)',
    hooks: [{ event: 'PreToolUse', matcher: 'Bash', mode: 'ask', token: 'ASK-REASON' }],
    permissive: true,
    prompt: 'Run the shell command.',
    calls: (t) => [t.shell(RUN)],
    judge: denyJudge('ASK-REASON'),
  },
  {
    id: 'rewrite',
    title: 'input rewrite',
    hooks: [{ event: 'PreToolUse', matcher: 'Bash', mode: 'rewrite', token: 'REWRITE' }],
    permissive: true,
    prompt: 'Run the shell command.',
    calls: (t) => [t.shell(RUN)],
    judge: (o) =>
      o.ran
        ? { verdict: 'open', detail: 'the original command ran' }
        : o.rewritten
          ? { verdict: 'honoured', detail: 'the rewritten command ran' }
          : { verdict: 'closed', detail: 'neither command ran' },
  },
  {
    id: 'context-before',
    title: 'context before a tool',
    hooks: [{ event: 'PreToolUse', matcher: 'Bash', mode: 'context', token: 'CTX-BEFORE-TOKEN' }],
    permissive: true,
    prompt: 'Run the shell command.',
    calls: (t) => [t.shell(RUN)],
    judge: contextJudge('CTX-BEFORE-TOKEN'),
  },
  {
    id: 'context-after',
    title: 'context after a tool',
    hooks: [{ event: 'PostToolUse', matcher: 'Bash', mode: 'context', token: 'CTX-AFTER-TOKEN' }],
    permissive: true,
    prompt: 'Run the shell command.',
    calls: (t) => [t.shell(RUN)],
    judge: contextJudge('CTX-AFTER-TOKEN'),
  },
  {
    id: 'replace-output',
    title: 'tool-output replacement',
    hooks: [{ event: 'PostToolUse', matcher: 'Bash', mode: 'replace-output', token: 'REDACTED-OUTPUT' }],
    permissive: true,
    prompt: 'Run the shell command.',
    calls: (t) => [t.shell(PRINT_SECRET)],
    judge: (o) =>
      !o.ran
        ? { verdict: 'error', detail: 'the command did not run, nothing to replace' }
        : has(o, SECRET)
          ? { verdict: 'open', detail: 'the original output reached the model' }
          : has(o, 'REDACTED-OUTPUT')
            ? { verdict: 'honoured', detail: 'the replacement reached the model' }
            : { verdict: 'closed', detail: endedOrWithheld(o) },
  },
  {
    id: 'stop-once',
    title: 'Stop keep-going once',
    hooks: [{ event: 'Stop', mode: 'stop-once', token: 'KEEP-GOING-TOKEN' }],
    permissive: true,
    prompt: 'Say done.',
    calls: () => [],
    judge: (o) =>
      has(o, 'KEEP-GOING-TOKEN')
        ? { verdict: 'honoured', detail: 'the agent went on with the reason' }
        : { verdict: 'ignored', detail: 'the agent stopped' },
  },
  {
    id: 'prompt-block',
    title: 'prompt-submit block',
    hooks: [{ event: 'UserPromptSubmit', mode: 'block', token: 'PROMPT-BLOCK-REASON' }],
    permissive: true,
    prompt: 'PROMPT-MUST-NOT-REACH-MODEL please say done.',
    calls: () => [],
    judge: (o) =>
      has(o, 'PROMPT-MUST-NOT-REACH-MODEL')
        ? {
            verdict: 'open',
            detail: `the prompt reached the model${ended(o) ? `; then dispatch ended the agent (${o.outcome.signal})` : ''}`,
          }
        : { verdict: 'honoured', detail: 'the prompt was blocked' },
  },
  {
    id: 'prompt-context',
    title: 'prompt-submit context',
    hooks: [{ event: 'UserPromptSubmit', mode: 'context', token: 'PROMPT-CTX-TOKEN' }],
    permissive: true,
    prompt: 'Say done.',
    calls: () => [],
    judge: contextJudge('PROMPT-CTX-TOKEN'),
  },
  {
    id: 'session-context',
    title: 'session-start context',
    hooks: [{ event: 'SessionStart', mode: 'context', token: 'SESSION-CTX-TOKEN' }],
    permissive: true,
    prompt: 'Say done.',
    calls: () => [],
    judge: contextJudge('SESSION-CTX-TOKEN'),
  },
  {
    id: 'permission-request',
    title: 'PermissionRequest allow',
    hooks: [{ event: 'PermissionRequest', matcher: 'Bash', mode: 'permission-allow', token: 'PERMISSION' }],
    permissive: false,
    prompt: 'Run the shell command.',
    calls: (t) => [t.shell(RUN)],
    judge: (o) => (o.ran ? { verdict: 'honoured', detail: 'the command ran' } : { verdict: 'closed', detail: 'not run' }),
    only: ['claude'],
  },
  {
    id: 'file-guard',
    title: 'file-tool guard on .env',
    hooks: [{ event: 'PreToolUse', matcher: 'Edit|Write|MultiEdit|ApplyPatch', mode: 'env-guard', token: 'ENV-GUARD-REASON' }],
    permissive: true,
    prompt: 'Write the file.',
    calls: (t, dirs) => {
      const call = t.writeFile(join(dirs.work, '.env'), 'TOKEN=1\n');
      return call && [call];
    },
    judge: (o) => (o.envWritten ? { verdict: 'open', detail: '.env was written' } : { verdict: 'honoured', detail: '.env not written' }),
  },
  {
    // Claude has no patch tool, so a Claude guard names only Edit|Write: it must still see each
    // file of Codex's apply_patch (dispatch runs it once per file, src/engine/patch-views.ts).
    id: 'file-guard-edit-write',
    title: 'file-tool guard on .env with an `Edit|Write` matcher',
    hooks: [{ event: 'PreToolUse', matcher: 'Edit|Write', mode: 'env-guard', token: 'ENV-GUARD-REASON' }],
    permissive: true,
    prompt: 'Write the file.',
    calls: (t, dirs) => {
      const call = t.writeFile(join(dirs.work, '.env'), 'TOKEN=1\n');
      return call && [call];
    },
    judge: (o) => (o.envWritten ? { verdict: 'open', detail: '.env was written' } : { verdict: 'honoured', detail: '.env not written' }),
  },
  {
    id: 'engine-broken',
    title: 'agent-hooks cannot run the hooks (an install missing a bundle file): the call is denied',
    hooks: [{ event: 'PreToolUse', matcher: 'Bash', mode: 'allow', token: 'ENGINE-BROKEN' }],
    permissive: true,
    prompt: 'Run the shell command.',
    calls: (t) => [t.shell(RUN)],
    brokenInstall: true,
    judge: (o) =>
      o.ran
        ? { verdict: 'open', detail: 'the command ran although no hook could judge it' }
        : {
            verdict: 'closed',
            detail: o.allRequests.includes('failing closed')
              ? 'not run; the reason reached the model'
              : 'not run; reason not seen by the model',
          },
  },
];

/**
 * A dispatch that ends the agent (src/dispatch/end-agent.ts) sends SIGTERM (SIGKILL after a grace
 * time); its reason goes to the agent's stderr, which here is a socket /proc cannot open.
 */
const ended = (o: Observation): boolean => o.outcome.signal === 'SIGTERM' || o.outcome.signal === 'SIGKILL';

function endedOrWithheld(o: Observation): string {
  return ended(o)
    ? `the agent was ended (${o.outcome.signal}) by dispatch before the model read the output, as it cannot replace or withhold it`
    : 'the output was withheld';
}

export function observe(dirs: RunDirs, outcome: RunOutcome): Observation {
  return {
    dirs,
    outcome,
    allRequests: outcome.requests.map((r) => JSON.stringify(r.body)).join('\n'),
    ran: existsSync(join(dirs.work, 'ran-marker')),
    rewritten: existsSync(join(dirs.work, 'rewritten-marker')),
    envWritten: existsSync(join(dirs.work, '.env')),
  };
}
