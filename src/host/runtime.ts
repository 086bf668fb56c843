/**
 * A host session: the wiring of everything in src/host, in the order that matters.
 *
 *   1. SessionStart (through createHookManager's startSession): `continue:false` refuses the
 *      session before anything starts; CLAUDE_ENV_FILE exports join the session env, which is
 *      then frozen.
 *   2. Slots, the permission engine, the hooks listeners; CLAUDE.md → InstructionsLoaded.
 *   3. MCP servers (the McpProvider) start with the frozen env; their tools join the registry.
 *   4. Tool pipeline, agent loop, compaction, heartbeat (SessionHeartbeat), signal handlers.
 *   5. end(): interrupt the running turn, SessionEnd under its own budget, close MCP, dispose.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { EventName } from '../events/catalog.js';
import { createHookManager, type HookManager, type SessionHandle } from '../session/manager.js';
import type { LoopOptions } from './agent.js';
import type { CompactionService } from './compaction.js';
import { addDirectory, changeCwd, createChangeWatcher } from './directories.js';
import { createConfigWatcher } from './config-watch.js';
import { attachHooks } from './hook-listeners.js';
import { createPermissionEngine } from './permissions.js';
import { createRuntimeSlots } from './runtime-slots.js';
import { addContext, isOver, type RuntimeState } from './session-state.js';
import { beginHooks, loadInstructions, workspaceDir } from './session-start.js';
import { addTaskTools, attachMcp, createLoop, createPipeline, type ElicitUI } from './session-tools.js';
import type { HostSession, HostSessionOptions, StartHostSessionResult } from './session-types.js';
import { endSession, installSignalHandlers, startHeartbeat } from './shutdown.js';
import type { TaskList } from './tasks.js';
import type { ToolPipeline } from './tool-pipeline.js';
import { builtinTools, toolRegistry } from './tools/index.js';
import { submit } from './turns.js';
import type { ElicitationResponse, HookRunner, ToolRegistry } from './types.js';

export type { HostSession, HostSessionOptions, StartHostSessionResult, TraceEntry } from './session-types.js';

export async function startHostSession(options: HostSessionOptions): Promise<StartHostSessionResult> {
  const workspace = workspaceDir(options.workspace);
  // Invalid rules or mode fail here, before any hook or process runs.
  const permissions = createPermissionEngine({
    rules: options.permissions,
    mode: options.mode,
    workspace,
    ...(options.config?.homeDir ? { homeDir: options.config.homeDir } : {}),
  });
  const sessionId = options.sessionId ?? randomUUID();
  const trace = options.onTrace ?? (() => {});
  const warn = (text: string) => trace({ kind: 'warning', text });
  const transcriptPath = options.transcriptDir ? path.join(options.transcriptDir, `${sessionId}.jsonl`) : undefined;
  if (options.transcriptDir) mkdirSync(path.join(options.transcriptDir, 'subagents'), { recursive: true });

  // 1. SessionStart first: nothing has started yet, so a refusal leaves nothing behind.
  const owned = !options.manager;
  const manager = options.manager ?? ownManager(options, warn);
  const begun = await beginHooks({ options, manager, owned, sessionId, workspace, transcriptPath, trace });
  if (!begun.ok) return begun;
  const hooks = begun.hooks;

  // 2. Slots, permissions and the hooks engine as a listener of every slot.
  const slots = createRuntimeSlots();
  const runner = withTranscriptPath(hooks, transcriptPath);
  attachHooks(slots, runner, {
    stopGuardMs: options.stopGuardMs,
    onDecision: (event, decision) => trace({ kind: 'hooks', event, decision }),
    onWarning: warn,
  });
  const st: RuntimeState = {
    options,
    workspace,
    sessionId,
    trace,
    warn,
    transcriptPath,
    manager,
    owned,
    hooks,
    runner,
    slots,
    permissions,
    cwd: workspace,
    roots: [],
    dynamicEnv: {},
    messages: [],
    pendingEvents: new Set(),
    running: undefined,
    queue: Promise.resolve(),
    ended: false,
    ending: undefined,
    signalHandlers: [],
  };
  if (begun.setup) addContext(st, begun.setup.additionalContext, 'Setup');
  addContext(st, begun.start.additionalContext, 'SessionStart');
  await loadInstructions(st);
  return { ok: true, session: await startServices(st, begun) };
}

/** A session without a manager of its host's gets its own, loading hooks as the config says. */
function ownManager(options: HostSessionOptions, warn: (text: string) => void): HookManager {
  return createHookManager({
    loadOptions: (projectDir) => ({ ...options.config, cwd: projectDir, projectDir }),
    ...(options.trust ? { trust: options.trust } : {}),
    ...(options.engineOptions ? { engineOptions: options.engineOptions } : {}),
    onWarning: (m) => warn(m),
  });
}

/** With a transcript, every hook input carries its path (an input's own transcript_path wins). */
function withTranscriptPath(hooks: SessionHandle, transcriptPath: string | undefined): HookRunner {
  return transcriptPath
    ? {
        run: (e: EventName, input: Record<string, unknown>, ctx?: Parameters<SessionHandle['run']>[2]) =>
          hooks.run(e, { transcript_path: transcriptPath, ...input }, ctx),
      }
    : hooks;
}

/** Steps 3 to 5, after the hooks said yes: tools and MCP, the loop, watchers, heartbeat, signals. */
async function startServices(st: RuntimeState, begun: { start: HostSession['start']; setup?: HostSession['setup'] }): Promise<HostSession> {
  const { options } = st;
  const prompter = options.prompter ?? {};
  const elicitUI: ElicitUI = async (request, signal = new AbortController().signal): Promise<ElicitationResponse> =>
    prompter.elicit ? prompter.elicit(request, signal) : { action: 'decline' };

  // 3. MCP servers start only now, with the frozen env. 4. Pipeline, loop, Task tool, compaction.
  const registry = toolRegistry([...builtinTools(), ...(options.tools ?? [])]);
  await attachMcp(st, registry, elicitUI);
  const pipeline = createPipeline(st, registry);
  const { loop, compaction } = createLoop(st, pipeline, registry);
  const taskList = addTaskTools(st, registry, loop);

  // Working directory, added directories, the FileChanged and ConfigChange watchers.
  st.fileWatcher = createChangeWatcher(st, begun.start);
  st.configWatcher = createConfigWatcher(st);

  // 5. Turns, queueing, heartbeat, shutdown.
  startHeartbeat(st);
  if (options.handleSignals) installSignalHandlers(st);
  return hostSession(st, { registry, pipeline, loop, compaction, taskList, elicitUI, begun });
}

/** The session a host holds: a view of the state record and the functions of its modules. */
function hostSession(
  st: RuntimeState,
  p: {
    registry: ToolRegistry;
    pipeline: ToolPipeline;
    loop: LoopOptions;
    compaction: CompactionService;
    taskList: TaskList;
    elicitUI: ElicitUI;
    begun: { start: HostSession['start']; setup?: HostSession['setup'] };
  },
): HostSession {
  const open = () => {
    if (isOver(st)) throw new Error(`session ${st.sessionId} has ended`);
  };
  return {
    id: st.sessionId,
    workspace: st.workspace,
    get env() {
      return st.hooks.env;
    },
    messages: st.messages,
    slots: st.slots,
    permissions: st.permissions,
    tools: p.registry,
    pipeline: p.pipeline,
    hooks: st.hooks,
    start: p.begun.start,
    ...(p.begun.setup ? { setup: p.begun.setup } : {}),
    submit: (prompt, opts = {}) => submit(st, p.loop, prompt, opts.signal),
    interrupt(reason = 'interrupted by the user') {
      st.running?.controller.abort(reason);
    },
    async compact(instructions = '') {
      return p.compaction.compact(st.messages, { trigger: 'manual', instructions });
    },
    elicitUI: p.elicitUI,
    get cwd() {
      return st.cwd;
    },
    directories: st.roots,
    dynamicEnv: st.dynamicEnv,
    watchedPaths: () => st.fileWatcher?.paths() ?? [],
    tasks: () => p.taskList.tasks(),
    async setCwd(dir) {
      open();
      await changeCwd(st, dir);
    },
    async addDirectory(dir, source) {
      open();
      await addDirectory(st, dir, source);
    },
    end: (reason) => endSession(st, reason),
    get ended() {
      return st.ended;
    },
  };
}
