/**
 * The plain state record of one host session, and the small functions every part of the
 * session uses on it: events fired from the session itself, the conversation, pending work.
 */
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import type { EventName } from '../events/catalog.js';
import { emptyDecision } from '../engine/engine.js';
import type { Decision } from '../reduce/reduce.js';
import type { HookManager, SessionHandle } from '../session/manager.js';
import type { FileWatcher } from './file-watch.js';
import type { Message } from './model.js';
import type { PermissionEngine } from './permissions.js';
import type { Actor, RuntimeSlots } from './runtime-slots.js';
import type { HostSessionOptions, TraceEntry } from './session-types.js';
import type { HookRunner, McpAttachment } from './types.js';

export interface RuntimeState {
  readonly options: HostSessionOptions;
  readonly workspace: string;
  readonly sessionId: string;
  readonly trace: (entry: TraceEntry) => void;
  readonly warn: (text: string) => void;
  readonly transcriptPath: string | undefined;
  readonly manager: HookManager;
  /** The manager was made by this session (end() closes it). */
  readonly owned: boolean;
  readonly hooks: SessionHandle;
  /** The hooks, with transcript_path in every input when the session writes a transcript. */
  readonly runner: HookRunner;
  readonly slots: RuntimeSlots;
  readonly permissions: PermissionEngine;
  /** The session cwd: the workspace until a Bash `cd` or setCwd moves it. */
  cwd: string;
  /** Added directories and worktrees: confinement roots next to the workspace. */
  readonly roots: string[];
  /** CLAUDE_ENV_FILE exports of CwdChanged/FileChanged. */
  readonly dynamicEnv: Record<string, string>;
  readonly messages: Message[];
  /** Events fired from watchers, awaited at shutdown. */
  readonly pendingEvents: Set<Promise<unknown>>;
  running: { controller: AbortController; done: Promise<unknown> } | undefined;
  /** Turns run one after the other. */
  queue: Promise<unknown>;
  ended: boolean;
  ending: Promise<void> | undefined;
  mcp?: McpAttachment;
  fileWatcher?: FileWatcher;
  configWatcher?: FileWatcher;
  heartbeat?: NodeJS.Timeout;
  readonly signalHandlers: Array<[NodeJS.Signals, () => void]>;
}

/** Ended, or ending: no new work starts. */
export const isOver = (st: RuntimeState): boolean => st.ended || st.ending !== undefined;

/**
 * Events fired from the session itself rather than from a slot (Setup aside): CwdChanged,
 * FileChanged, DirectoryAdded, UserPromptExpansion, the task and worktree events,
 * ConfigChange. An engine error is reported and treated as "no hook decided".
 */
export async function emit(st: RuntimeState, event: EventName, input: Record<string, unknown>, cwd = st.cwd): Promise<Decision> {
  let decision: Decision;
  try {
    decision = await st.runner.run(
      event,
      { ...input, permission_mode: st.permissions.mode, cwd },
      { permissionMode: st.permissions.mode, cwd },
    );
  } catch (e) {
    st.warn(`${event} hooks failed: ${(e as Error)?.message ?? String(e)}`);
    decision = emptyDecision(event);
  }
  st.trace({ kind: 'hooks', event, decision });
  return decision;
}

/** CLAUDE_ENV_FILE exports of CwdChanged/FileChanged: later Bash commands see them. */
export function applyEnv(st: RuntimeState, d: Decision): void {
  const added = d.eventOutput.env;
  if (added && typeof added === 'object') Object.assign(st.dynamicEnv, added);
}

/** A message joined the conversation: trace it and append it to the (subagent's) transcript. */
export function onMessage(st: RuntimeState, m: Message, actor: Actor): void {
  st.trace({ kind: 'message', message: m, actor });
  const dir = st.options.transcriptDir;
  if (st.transcriptPath && !actor.agentId) appendFileSync(st.transcriptPath, `${JSON.stringify(m)}\n`);
  if (dir && actor.agentId) appendFileSync(path.join(dir, 'subagents', `${actor.agentId}.jsonl`), `${JSON.stringify(m)}\n`);
}

/** Hooks' additionalContext as one user message, tagged with the event it came from. */
export function addContext(st: RuntimeState, texts: readonly string[], source: string): void {
  if (texts.length === 0) return;
  const m: Message = { role: 'user', content: texts.map((t) => `<hook-context source="${source}">${t}</hook-context>`).join('\n') };
  st.messages.push(m);
  onMessage(st, m, {});
}

/** Keep a watcher-fired event until it settles, so shutdown can wait for it. */
export function track<T>(st: RuntimeState, p: Promise<T>): Promise<T> {
  st.pendingEvents.add(p);
  void p.finally(() => st.pendingEvents.delete(p)).catch(() => {});
  return p;
}
