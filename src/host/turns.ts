/**
 * Turns: a prompt (slash command expanded first) through UserPromptSubmit into the agent loop.
 * Prompts submitted while a turn runs are queued (UserPromptQueued) and run after it.
 */
import { randomUUID } from 'node:crypto';
import { runLoop, type LoopOptions, type TurnResult } from './agent.js';
import { resolveSlashCommand } from './commands.js';
import type { Message } from './model.js';
import { addContext, emit, isOver, onMessage, type RuntimeState } from './session-state.js';

/** A slash command expands first; a UserPromptExpansion block erases it like a prompt block. */
async function expand(st: RuntimeState, prompt: string): Promise<{ prompt: string; context: string[] } | TurnResult> {
  const command = resolveSlashCommand(st.workspace, prompt);
  if (!command) return { prompt, context: [] };
  const d = await emit(st, 'UserPromptExpansion', {
    expansion_type: 'slash_command',
    command_name: command.name,
    command_args: command.args,
    command_source: command.source,
    prompt,
  });
  if (d.blocked)
    return { status: 'blocked', finalText: '', steps: 0, reason: d.reason ?? `/${command.name} was blocked by a UserPromptExpansion hook` };
  if (!d.continue)
    return { status: 'stopped', finalText: '', steps: 0, reason: d.stopReason ?? 'a UserPromptExpansion hook stopped the agent' };
  // A skill's frontmatter hooks are registered when it is invoked, for the rest of the session.
  if (command.source === 'skill')
    await st.hooks.addSkill(command.file).catch((e) => st.warn(`skill ${command.name}: ${(e as Error).message}`));
  return { prompt: command.expanded, context: d.additionalContext };
}

async function turn(st: RuntimeState, loop: LoopOptions, original: string, signal: AbortSignal): Promise<TurnResult> {
  const expanded = await expand(st, original);
  if ('status' in expanded) return expanded;
  const { prompt } = expanded;
  const { slots, permissions } = st;
  const submitted = await slots.promptSubmit.fire({ prompt, mode: permissions.mode, cwd: st.cwd, additionalContext: [] });
  if (submitted.vetoed) {
    // The prompt is erased: it never reaches the conversation.
    const status = submitted.event.stop ? 'stopped' : 'blocked';
    return { status, finalText: '', steps: 0, reason: submitted.vetoed.reason };
  }
  const userMessage: Message = { role: 'user', content: prompt };
  st.messages.push(userMessage);
  onMessage(st, userMessage, {});
  addContext(st, expanded.context, 'UserPromptExpansion');
  addContext(st, submitted.event.additionalContext, 'UserPromptSubmit');
  const turnId = randomUUID();
  await slots.turnStart.fire({ turnId, mode: permissions.mode, cwd: st.cwd });
  const result = await runLoop(loop, { messages: st.messages, signal, actor: {}, turnId, stopSlot: 'beforeStop' });
  if (result.status === 'interrupted')
    await slots.interrupt.fire({ mode: permissions.mode, cwd: st.cwd, reason: result.reason ?? 'interrupted' });
  return result;
}

async function runTurn(st: RuntimeState, loop: LoopOptions, prompt: string, outer?: AbortSignal): Promise<TurnResult> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(outer?.reason);
  outer?.addEventListener('abort', onAbort, { once: true });
  const done = turn(st, loop, prompt, controller.signal);
  st.running = { controller, done };
  try {
    return await done;
  } finally {
    outer?.removeEventListener('abort', onAbort);
    if (st.running?.done === done) st.running = undefined;
  }
}

/** Submit a prompt; while a turn runs it is queued (UserPromptQueued) and runs after it. */
export function submit(st: RuntimeState, loop: LoopOptions, prompt: string, signal?: AbortSignal): Promise<TurnResult> {
  if (isOver(st)) return Promise.reject(new Error(`session ${st.sessionId} has ended`));
  if (st.running) void st.slots.promptQueued.fire({ prompt, mode: st.permissions.mode, cwd: st.cwd });
  const next = st.queue.then(() => runTurn(st, loop, prompt, signal));
  st.queue = next.catch(() => {});
  return next;
}
