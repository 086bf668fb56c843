/**
 * The agent loop and the Task tool's subagent loop.
 *
 * A turn: UserPromptSubmit (a block erases the prompt; context is injected) → TurnStarted →
 * steps: model call → MessageDisplay for its text → tool batch through the pipeline
 * (PostToolBatch may stop the loop) … until the model answers without tool calls → Stop (a
 * block continues the loop with the reason as a user message; the engine caps consecutive
 * blocks; an outer guard bounds the hooks) → done. A model failure fires StopFailure instead
 * of Stop; an abort fires Interrupt. A prompt submitted while a turn runs is queued
 * (UserPromptQueued) and runs after it.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { CompactionService } from './compaction.js';
import { CompactionBlockedError } from './compaction.js';
import { ModelError, type Message, type Model, type ModelReply } from './model.js';
import type { PermissionEngine } from './permissions.js';
import type { Actor, RuntimeSlots } from './runtime-slots.js';
import type { ToolPipeline } from './tool-pipeline.js';
import { ToolError, type HostTool } from './types.js';

export type TurnStatus = 'completed' | 'blocked' | 'interrupted' | 'failed' | 'stopped' | 'max_steps';

export interface TurnResult {
  status: TurnStatus;
  /** The last assistant text. */
  finalText: string;
  /** Why it blocked, stopped, failed or was interrupted. */
  reason?: string;
  /** Model calls made. */
  steps: number;
  /** StopFailure's error type, when failed. */
  error?: string;
}

export interface LoopOptions {
  model: Model;
  pipeline: ToolPipeline;
  slots: RuntimeSlots;
  permissions: PermissionEngine;
  cwd: string;
  /** The tools offered to the model. */
  tools: () => HostTool[];
  /** Model calls per turn before it ends with max_steps (default 50). */
  maxSteps?: number;
  /** Consecutive Stop continuations through additionalContext alone (blocks are capped by the engine); default 8. */
  maxStopContinuations?: number;
  compaction?: CompactionService;
  /** Compact automatically before a model call when the conversation exceeds this many characters. */
  autoCompactChars?: number;
  /** Shows assistant text (after MessageDisplay hooks). */
  display?: (text: string, actor: Actor) => void;
  onMessage?: (message: Message, actor: Actor) => void;
  onWarning?: (message: string) => void;
}

interface RunLoopArgs {
  messages: Message[];
  signal: AbortSignal;
  actor: Actor;
  turnId: string;
  stopSlot: 'beforeStop' | 'beforeSubagentStop';
  agentTranscriptPath?: string;
  /** Tools run here instead of the session cwd (a subagent in its worktree). */
  cwd?: string;
}

const size = (messages: readonly Message[]) => messages.reduce((n, m) => n + m.content.length, 0);
const contextMessage = (texts: readonly string[], source: string): Message => ({
  role: 'user',
  content: texts.map((t) => `<hook-context source="${source}">${t}</hook-context>`).join('\n'),
});

/** One loop's running state: its options and arguments, and what the steps so far left behind. */
interface LoopState {
  opts: LoopOptions;
  args: RunLoopArgs;
  /** Stop continuations through additionalContext alone, at most. */
  maxCont: number;
  stopHookActive: boolean;
  continuations: number;
  finalText: string;
  steps: number;
}

/** Run model steps until the agent stops (shared by the main agent and subagents). */
export async function runLoop(opts: LoopOptions, args: RunLoopArgs): Promise<TurnResult> {
  const { messages, signal } = args;
  const maxSteps = opts.maxSteps ?? 50;
  const st: LoopState = {
    opts,
    args,
    maxCont: opts.maxStopContinuations ?? 8,
    stopHookActive: false,
    continuations: 0,
    finalText: '',
    steps: 0,
  };

  while (st.steps < maxSteps) {
    if (signal.aborted) return interrupted(st);
    await autoCompact(opts, messages);
    st.steps++;
    const called = await callModel(st);
    if ('end' in called) return called.end;
    const { reply } = called;
    push(st, { role: 'assistant', content: reply.text, ...(reply.toolCalls.length ? { toolCalls: reply.toolCalls } : {}) });
    if (reply.text) await showText(st, reply.text);
    // Tool calls: run them and call the model again, unless the batch ended the turn.
    const end = reply.toolCalls.length > 0 ? await runTools(st, reply.toolCalls) : await askStop(st, reply.text);
    if (end) return end;
  }
  return { status: 'max_steps', finalText: st.finalText, steps: st.steps, reason: `stopped after ${maxSteps} model calls` };
}

function push(st: LoopState, m: Message): void {
  st.args.messages.push(m);
  st.opts.onMessage?.(m, st.args.actor);
}

function interrupted(st: LoopState): TurnResult {
  return { status: 'interrupted', finalText: st.finalText, steps: st.steps, reason: reasonOf(st.args.signal) };
}

async function autoCompact(opts: LoopOptions, messages: Message[]): Promise<void> {
  if (opts.compaction && opts.autoCompactChars !== undefined && size(messages) > opts.autoCompactChars) {
    try {
      await opts.compaction.compact(messages, { trigger: 'auto' });
    } catch (e) {
      // Proactive auto-compaction that a hook blocks is skipped: the conversation goes on uncompacted.
      if (!(e instanceof CompactionBlockedError)) throw e;
      opts.onWarning?.(`auto-compaction skipped: ${e.reason}`);
    }
  }
}

/** One model call; a failure fires StopFailure and ends the turn (an abort ends it as interrupted). */
async function callModel(st: LoopState): Promise<{ reply: ModelReply } | { end: TurnResult }> {
  const { opts, args } = st;
  const { messages, signal, actor } = args;
  try {
    const reply = await opts.model.complete({
      messages,
      tools: opts.tools(),
      signal,
      ...(actor.agentId ? { agent: { id: actor.agentId, type: actor.agentType ?? '' } } : {}),
    });
    return { reply };
  } catch (e) {
    if (signal.aborted) return { end: interrupted(st) };
    const err = e instanceof ModelError ? e : new ModelError('unknown', (e as Error)?.message ?? String(e));
    await opts.slots.stopFailure.fire({
      mode: opts.permissions.mode,
      cwd: opts.cwd,
      error: err.kind,
      errorDetails: err.details ?? err.message,
      lastAssistantMessage: `API Error: ${err.message}`,
      ...actor,
    });
    return { end: { status: 'failed', finalText: st.finalText, steps: st.steps, reason: err.message, error: err.kind } };
  }
}

/** The assistant's text through MessageDisplay hooks, then to the display. */
async function showText(st: LoopState, text: string): Promise<void> {
  const { opts, args } = st;
  st.finalText = text;
  const shown = await opts.slots.messageDisplay.fire({
    turnId: args.turnId,
    messageId: randomUUID(),
    text,
    display: text,
    mode: opts.permissions.mode,
    cwd: opts.cwd,
    ...args.actor,
  });
  opts.display?.(shown.event.display, args.actor);
}

/** The tool batch through the pipeline; undefined when the loop goes on to the next model call. */
async function runTools(st: LoopState, toolCalls: ModelReply['toolCalls']): Promise<TurnResult | undefined> {
  const { opts, args } = st;
  const batch = await opts.pipeline.runBatch(toolCalls, {
    signal: args.signal,
    actor: args.actor,
    ...(args.cwd !== undefined ? { cwd: args.cwd } : {}),
  });
  for (const o of batch.outcomes) push(st, { role: 'tool', toolCallId: o.toolUseId, content: o.content });
  if (batch.additionalContext.length) push(st, contextMessage(batch.additionalContext, 'PostToolBatch'));
  if (args.signal.aborted) return interrupted(st);
  if (batch.stop) {
    push(st, { role: 'user', content: `<hook-stop>${batch.stop}</hook-stop>` });
    return { status: 'stopped', finalText: st.finalText, steps: st.steps, reason: batch.stop };
  }
  return undefined;
}

/** The model is done: Stop (or SubagentStop) hooks decide whether it may stop; undefined = go on. */
async function askStop(st: LoopState, lastText: string): Promise<TurnResult | undefined> {
  const { opts, args } = st;
  const stop = await opts.slots[args.stopSlot].fire({
    mode: opts.permissions.mode,
    cwd: opts.cwd,
    stopHookActive: st.stopHookActive,
    lastAssistantMessage: lastText,
    additionalContext: [],
    ...(args.agentTranscriptPath !== undefined ? { agentTranscriptPath: args.agentTranscriptPath } : {}),
    ...args.actor,
  });
  if (stop.event.stop) return { status: 'stopped', finalText: st.finalText, steps: st.steps, reason: stop.event.stop };
  if (stop.vetoed) {
    // Continue with the reason as the next user message (for a subagent: its next instruction).
    push(st, { role: 'user', content: stop.vetoed.reason });
    st.stopHookActive = true;
    return undefined;
  }
  if (stop.event.additionalContext.length > 0 && st.continuations < st.maxCont) {
    st.continuations++;
    push(st, contextMessage(stop.event.additionalContext, args.stopSlot === 'beforeStop' ? 'Stop' : 'SubagentStop'));
    st.stopHookActive = true;
    return undefined;
  }
  return { status: 'completed', finalText: st.finalText, steps: st.steps };
}

function reasonOf(signal: AbortSignal): string {
  const r = signal.reason as unknown;
  if (typeof r === 'string') return r;
  if (r instanceof Error && r.name !== 'AbortError') return r.message;
  return 'interrupted';
}

export interface SubagentDefinition {
  description?: string;
  /** First message of the subagent's conversation. */
  systemPrompt?: string;
  /** An agent file with frontmatter hooks (its Stop hooks become SubagentStop), registered while it runs. */
  file?: string;
}

export interface TaskToolOptions {
  loop: () => LoopOptions;
  subagents: Record<string, SubagentDefinition>;
  /** Registers an agent file's frontmatter hooks while fn runs (SessionHandle.withAgent). */
  withAgent?: <T>(file: string, fn: () => Promise<T>) => Promise<T>;
  transcriptDir?: string;
  /** Worktree isolation (`isolation: "worktree"`): WorktreeCreate before the subagent, WorktreeRemove after. */
  worktrees?: WorktreeManager;
}

/** A worktree a subagent runs in. */
export interface Worktree {
  path: string;
  /** Created by a WorktreeCreate hook (then only WorktreeRemove hooks clean it up), else by git. */
  byHook: boolean;
}
export interface WorktreeManager {
  create(name: string): Promise<Worktree>;
  remove(worktree: Worktree): Promise<void>;
}

const taskInput = z.strictObject({
  description: z.string(),
  prompt: z.string().min(1),
  subagent_type: z.string().min(1),
  isolation: z.enum(['worktree']).optional(),
});

/**
 * The Task tool: runs a subagent loop with its own messages. SubagentStart may add context; when
 * a SubagentStop hook blocks the stop, the subagent runs once more with the reason and its
 * existing messages (each further block, once more again, up to the engine's block cap).
 */
export function taskTool(options: TaskToolOptions): HostTool<z.infer<typeof taskInput>> {
  return {
    name: 'Task',
    description: `Run a subagent on a task. Types: ${Object.keys(options.subagents).join(', ')}`,
    inputSchema: taskInput,
    selfChecked: true,
    async run(args, ctx) {
      const def = options.subagents[args.subagent_type];
      if (!def)
        throw new ToolError(
          `unknown subagent_type ${JSON.stringify(args.subagent_type)} (known: ${Object.keys(options.subagents).join(', ')})`,
        );
      const loop = options.loop();
      const agentId = `agent-${randomUUID().slice(0, 8)}`;
      const actor = { agentId, agentType: args.subagent_type };
      let worktree: Worktree | undefined;
      if (args.isolation === 'worktree') {
        if (!options.worktrees) throw new ToolError('worktree isolation is not available in this runtime');
        try {
          worktree = await options.worktrees.create(agentId);
        } catch (e) {
          throw new ToolError(`worktree creation failed: ${(e as Error).message}`);
        }
      }
      const cwd = worktree?.path ?? loop.cwd;
      const go = async () => {
        const start = await loop.slots.subagentStart.fire({
          agentId,
          agentType: args.subagent_type,
          mode: loop.permissions.mode,
          cwd,
          additionalContext: [],
        });
        const messages: Message[] = [];
        if (def.systemPrompt) messages.push({ role: 'system', content: def.systemPrompt });
        if (start.event.additionalContext.length) messages.push(contextMessage(start.event.additionalContext, 'SubagentStart'));
        messages.push({ role: 'user', content: args.prompt });
        const transcript = options.transcriptDir ? `${options.transcriptDir}/subagents/${agentId}.jsonl` : '';
        const result = await runLoop(
          { ...loop, cwd, tools: () => loop.tools().filter((t) => t.name !== 'Task') },
          {
            messages,
            signal: ctx.signal,
            actor,
            turnId: randomUUID(),
            stopSlot: 'beforeSubagentStop',
            agentTranscriptPath: transcript,
            ...(worktree ? { cwd: worktree.path } : {}),
          },
        );
        return { result, messages };
      };
      let ran: Awaited<ReturnType<typeof go>>;
      try {
        ran = def.file && options.withAgent ? await options.withAgent(def.file, go) : await go();
      } finally {
        // The subagent finished (or failed): its worktree goes (WorktreeRemove).
        if (worktree) await options.worktrees!.remove(worktree);
      }
      const { result, messages } = ran;
      const output = {
        agentId,
        agentType: args.subagent_type,
        status: result.status,
        content: result.finalText,
        messages: messages.length,
        ...(worktree ? { worktreePath: worktree.path } : {}),
      };
      if (result.status === 'failed' || result.status === 'interrupted')
        throw new ToolError(`subagent ${agentId} ${result.status}: ${result.reason ?? ''}`.trim(), output);
      return { output, content: result.finalText || `(subagent ${agentId} returned no text)` };
    },
  };
}
