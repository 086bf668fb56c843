/**
 * The tools of a host session and what runs them: MCP servers (started with the frozen env),
 * the task list and the Task tool, the tool pipeline, the agent loop and compaction.
 */
import { taskTool, type LoopOptions } from './agent.js';
import { createCompactionService, type CompactionService } from './compaction.js';
import { changeCwd } from './directories.js';
import { createTaskList, type TaskList } from './tasks.js';
import { createToolPipeline, type ToolPipeline } from './tool-pipeline.js';
import { emit, onMessage, type RuntimeState } from './session-state.js';
import type { ElicitationRequest, ElicitationResponse, HostTool, ToolRegistry } from './types.js';
import { createWorktrees } from './worktrees.js';

export type ElicitUI = (request: ElicitationRequest, signal?: AbortSignal) => Promise<ElicitationResponse>;

/** MCP servers start only now, with the frozen env; their tools join the registry. A failure unbinds the session. */
export async function attachMcp(st: RuntimeState, registry: ToolRegistry, elicitUI: ElicitUI): Promise<void> {
  const provider = st.options.mcp;
  if (!provider) return;
  const { slots, permissions } = st;
  try {
    st.mcp = await provider({
      sessionId: st.sessionId,
      cwd: st.workspace,
      env: st.hooks.env,
      // Events the MCP module fires itself (Elicitation, ElicitationResult) are traced like the rest.
      hooks: {
        run: async (event, input, ctx) => {
          const decision = await st.runner.run(event, input, ctx);
          st.trace({ kind: 'hooks', event, decision });
          return decision;
        },
      },
      permissionMode: () => permissions.mode,
      elicitUI,
      notify: async (n) => {
        await slots.notification.fire({
          mode: permissions.mode,
          cwd: st.cwd,
          message: n.message,
          ...(n.title !== undefined ? { title: n.title } : {}),
          notificationType: n.notification_type,
        });
      },
      onWarning: st.warn,
    });
    for (const t of st.mcp.tools) {
      if (registry.has(t.name)) st.warn(`MCP tool ${t.name} clashes with a tool of the same name; skipped`);
      else registry.set(t.name, t);
    }
  } catch (e) {
    await st.manager.dispose(st.sessionId);
    if (st.owned) await st.manager.close();
    throw e;
  }
}

export function createPipeline(st: RuntimeState, registry: ToolRegistry): ToolPipeline {
  const { options } = st;
  return createToolPipeline({
    tools: registry,
    permissions: st.permissions,
    slots: st.slots,
    workspace: st.workspace,
    sessionId: st.sessionId,
    env: () => (Object.keys(st.dynamicEnv).length ? { ...st.hooks.env, ...st.dynamicEnv } : st.hooks.env),
    cwd: () => st.cwd,
    roots: () => st.roots,
    onCwd: async (dir) => {
      try {
        await changeCwd(st, dir);
        return undefined;
      } catch (e) {
        return `Shell cwd was reset to ${st.cwd}: ${(e as Error).message}`;
      }
    },
    prompter: options.prompter ?? {},
    ...(options.autoClassifier ? { autoClassifier: options.autoClassifier } : {}),
    ...(options.toolConcurrency ? { concurrency: options.toolConcurrency } : {}),
    onOutcome: (outcome, actor) => st.trace({ kind: 'tool', outcome, actor }),
    onWarning: st.warn,
  });
}

export function createLoop(
  st: RuntimeState,
  pipeline: ToolPipeline,
  registry: ToolRegistry,
): { loop: LoopOptions; compaction: CompactionService } {
  const { options, permissions } = st;
  const compaction = createCompactionService({
    slots: st.slots,
    cwd: st.workspace,
    mode: () => permissions.mode,
    ...(options.summarize ? { summarize: options.summarize } : {}),
  });
  const loop: LoopOptions = {
    model: options.model,
    pipeline,
    slots: st.slots,
    permissions,
    get cwd() {
      return st.cwd;
    },
    tools: () => [...registry.values()],
    compaction,
    ...(options.maxSteps !== undefined ? { maxSteps: options.maxSteps } : {}),
    ...(options.autoCompactChars !== undefined ? { autoCompactChars: options.autoCompactChars } : {}),
    display: (text, actor) => st.trace({ kind: 'display', text, actor }),
    onMessage: (m, actor) => onMessage(st, m, actor),
    onWarning: st.warn,
  };
  return { loop, compaction };
}

/** The task list (TaskCreated, TaskStarted, TaskCompleted) and the Task tool; a host's own tool of the same name wins. */
export function addTaskTools(st: RuntimeState, registry: ToolRegistry, loop: LoopOptions): TaskList {
  const taskList = createTaskList((event, input) => emit(st, event, input));
  for (const t of taskList.tools()) if (!registry.has(t.name)) registry.set(t.name, t);
  if (!registry.has('Task')) {
    registry.set(
      'Task',
      taskTool({
        loop: () => loop,
        subagents: st.options.subagents ?? { 'general-purpose': {} },
        withAgent: (file, fn) => st.hooks.withAgent(file, () => fn()),
        worktrees: createWorktrees(st),
        ...(st.options.transcriptDir ? { transcriptDir: st.options.transcriptDir } : {}),
      }) as unknown as HostTool,
    );
  }
  return taskList;
}
