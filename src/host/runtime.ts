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
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { appendFileSync, mkdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { LoadConfigOptions } from '../config/load.js';
import type { EventName } from '../events/catalog.js';
import { emptyDecision } from '../engine/engine.js';
import type { Decision } from '../reduce/reduce.js';
import { createHookManager, type HookManager, type HookManagerOptions, type SessionEngineOptions, type SessionHandle } from '../session/manager.js';
import { runLoop, taskTool, type LoopOptions, type SubagentDefinition, type TurnResult, type Worktree, type WorktreeManager } from './agent.js';
import { resolveSlashCommand } from './commands.js';
import { createTaskList, type Task } from './tasks.js';
import { CompactionBlockedError, createCompactionService, type CompactionResult, type Summarizer } from './compaction.js';
import { createFileWatcher, type FileChangeKind } from './file-watch.js';
import { attachHooks, DEFAULT_SESSION_END_BUDGET_MS } from './hook-listeners.js';
import type { Message, Model } from './model.js';
import { createPermissionEngine, type HostPermissionMode, type PermissionEngine, type PermissionRules } from './permissions.js';
import { createRuntimeSlots, type Actor, type RuntimeSlots } from './runtime-slots.js';
import { createToolPipeline, type ToolOutcome, type ToolPipeline } from './tool-pipeline.js';
import { builtinTools, isInsideAny, toolRegistry } from './tools/index.js';
import type { AutoClassifier, ElicitationRequest, ElicitationResponse, HostTool, McpAttachment, McpProvider, Prompter, ToolRegistry } from './types.js';

const execFileP = promisify(execFile);

export type TraceEntry =
  | { kind: 'hooks'; event: EventName; decision: Decision }
  | { kind: 'tool'; outcome: ToolOutcome; actor: Actor }
  | { kind: 'message'; message: Message; actor: Actor }
  | { kind: 'display'; text: string; actor: Actor }
  | { kind: 'warning'; text: string }
  | { kind: 'session'; text: string };

export interface HostSessionOptions {
  /** The workspace: project directory of the hooks config, and the tools' confinement root. */
  workspace: string;
  sessionId?: string;
  model: Model;
  /** Config loading for the workspace (default: user, project, local and managed settings). */
  config?: Omit<LoadConfigOptions, 'cwd' | 'projectDir' | 'gate'>;
  /** Hook trust (see createHookManager). */
  trust?: HookManagerOptions['trust'];
  /** Engine options (audit log, timeouts, concurrency, backends…). */
  engineOptions?: SessionEngineOptions;
  /** A manager the host owns (then `config`/`trust` are its business, and end() only disposes this session). */
  manager?: HookManager;
  permissions?: PermissionRules;
  mode?: HostPermissionMode;
  /** Explicit session environment (SessionStart exports are added, then it is frozen). */
  env?: Record<string, string>;
  /** Extra tools next to the built-in eight (and Task). */
  tools?: HostTool[];
  prompter?: Prompter;
  autoClassifier?: AutoClassifier;
  mcp?: McpProvider;
  /** Subagent types of the Task tool (default: general-purpose). */
  subagents?: Record<string, SubagentDefinition>;
  /** SessionHeartbeat interval in ms (default 60 000; 0 turns it off). */
  heartbeatMs?: number;
  /** Outer guard on Stop / SubagentStop hooks (default 30 000 ms). */
  stopGuardMs?: number;
  /** SessionEnd's overall budget at shutdown (default 2 000 ms). */
  sessionEndBudgetMs?: number;
  /** End the session on SIGINT/SIGTERM (SessionEnd runs), then exit with 128+signal. */
  handleSignals?: boolean;
  maxSteps?: number;
  autoCompactChars?: number;
  summarize?: Summarizer;
  toolConcurrency?: 'parallel' | 'serial';
  /**
   * Run Setup hooks (trigger `init` or `maintenance`) before SessionStart, as `--init` /
   * `--maintenance` do; their CLAUDE_ENV_FILE exports join the session env and their
   * additionalContext comes first in the conversation. Default: no Setup.
   */
  setup?: 'init' | 'maintenance';
  /** FileChanged: quiet time before a burst of changes to one file is reported (default 100 ms). */
  fileWatchDebounceMs?: number;
  /** Load <workspace>/CLAUDE.md into context (InstructionsLoaded fires); default true. */
  loadInstructions?: boolean;
  /** Write JSONL transcripts here (hooks get transcript_path); default none. */
  transcriptDir?: string;
  onTrace?: (entry: TraceEntry) => void;
}

export interface HostSession {
  readonly id: string;
  readonly workspace: string;
  /** The frozen session environment. */
  readonly env: Readonly<Record<string, string>>;
  readonly messages: Message[];
  readonly slots: RuntimeSlots;
  readonly permissions: PermissionEngine;
  readonly tools: ToolRegistry;
  readonly pipeline: ToolPipeline;
  readonly hooks: SessionHandle;
  /** SessionStart's decision (context, env, records). */
  readonly start: Decision;
  /** Setup's decision, when the session started with `setup`. */
  readonly setup?: Decision;
  /** The session's task list (TaskCreate / TaskUpdate). */
  tasks(): Task[];
  /** The session's working directory: the workspace until a Bash `cd` or setCwd moves it. */
  readonly cwd: string;
  /** Directories added with addDirectory (confinement roots next to the workspace). */
  readonly directories: readonly string[];
  /** Environment added by CwdChanged/FileChanged CLAUDE_ENV_FILE exports (Bash sees it on top of env). */
  readonly dynamicEnv: Readonly<Record<string, string>>;
  /** Paths the FileChanged watcher watches now (matcher names in the cwd + watchPaths). */
  watchedPaths(): string[];
  /** Move the session cwd (inside the workspace or an added directory); CwdChanged fires. */
  setCwd(dir: string): Promise<void>;
  /** Add a working directory (confinement root); DirectoryAdded fires. */
  addDirectory(dir: string, source?: 'slash_command' | 'register_repo_root'): Promise<void>;
  /** Submit a prompt; while a turn runs it is queued (UserPromptQueued) and runs after it. */
  submit(prompt: string, opts?: { signal?: AbortSignal }): Promise<TurnResult>;
  /** Abort the running turn (Interrupt fires). */
  interrupt(reason?: string): void;
  /** Manual compaction; throws CompactionBlockedError when a PreCompact hook blocks. */
  compact(instructions?: string): Promise<CompactionResult>;
  /** The user's elicitation UI, as given to the MCP provider (headless: decline). */
  elicitUI(request: ElicitationRequest, signal?: AbortSignal): Promise<ElicitationResponse>;
  /** SessionEnd (own budget), close MCP servers, dispose the hooks session. Idempotent. */
  end(reason?: string): Promise<void>;
  readonly ended: boolean;
}

export type StartHostSessionResult = { ok: true; session: HostSession } | { ok: false; reason: string; decision: Decision };

export async function startHostSession(options: HostSessionOptions): Promise<StartHostSessionResult> {
  let workspace: string;
  try {
    workspace = realpathSync.native(path.resolve(options.workspace));
  } catch (e) {
    throw new Error(`startHostSession: workspace ${JSON.stringify(options.workspace)} cannot be used: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (!statSync(workspace).isDirectory()) throw new Error(`startHostSession: workspace ${JSON.stringify(options.workspace)} is not a directory`);
  // Invalid rules or mode fail here, before any hook or process runs.
  const permissions = createPermissionEngine({ rules: options.permissions, mode: options.mode, workspace, ...(options.config?.homeDir ? { homeDir: options.config.homeDir } : {}) });
  const sessionId = options.sessionId ?? randomUUID();
  const trace = options.onTrace ?? (() => {});
  const warn = (text: string) => trace({ kind: 'warning', text });
  const transcriptPath = options.transcriptDir ? path.join(options.transcriptDir, `${sessionId}.jsonl`) : undefined;
  if (options.transcriptDir) mkdirSync(path.join(options.transcriptDir, 'subagents'), { recursive: true });

  // 1. SessionStart first: nothing has started yet, so a refusal leaves nothing behind.
  const owned = !options.manager;
  const manager =
    options.manager ??
    createHookManager({
      loadOptions: (projectDir) => ({ ...options.config, cwd: projectDir, projectDir }),
      ...(options.trust ? { trust: options.trust } : {}),
      ...(options.engineOptions ? { engineOptions: options.engineOptions } : {}),
      onWarning: (m) => warn(m),
    });
  // 0. Setup (--init / --maintenance) before SessionStart: a short-lived binding of the same
  // session id runs it, then SessionStart binds the session for good with Setup's env exports.
  let setupDecision: Decision | undefined;
  let bindEnv = options.env;
  if (options.setup !== undefined) {
    if (options.setup !== 'init' && options.setup !== 'maintenance') throw new Error(`startHostSession: setup must be "init" or "maintenance", got ${JSON.stringify(options.setup)}`);
    try {
      const bound = await manager.bindSession({ sessionId, projectDir: workspace, ...(options.env ? { env: options.env } : {}), model: options.model.name });
      try {
        setupDecision = await bound.run('Setup', { trigger: options.setup, ...(transcriptPath ? { transcript_path: transcriptPath } : {}) }, { permissionMode: options.mode ?? 'default' });
      } finally {
        await manager.dispose(sessionId);
      }
    } catch (e) {
      if (owned) await manager.close();
      throw e;
    }
    trace({ kind: 'hooks', event: 'Setup', decision: setupDecision });
    const added = setupDecision.eventOutput.env;
    if (added && typeof added === 'object') bindEnv = { ...(options.env ?? {}), ...(added as Record<string, string>) };
  }
  const started = await manager.startSession({
    sessionId,
    projectDir: workspace,
    ...(bindEnv ? { env: bindEnv } : {}),
    model: options.model.name,
    source: 'startup',
    input: transcriptPath ? { transcript_path: transcriptPath } : {},
    ctx: { permissionMode: options.mode ?? 'default' },
  });
  trace({ kind: 'hooks', event: 'SessionStart', decision: started.decision });
  if (!started.ok) {
    if (owned) await manager.close();
    return { ok: false, reason: started.reason, decision: started.decision };
  }
  const hooks = started.session;

  // 2. Slots, permissions and the hooks engine as a listener of every slot.
  const slots = createRuntimeSlots();
  const withTranscript = transcriptPath ? { run: (e: EventName, input: Record<string, unknown>, ctx?: Parameters<SessionHandle['run']>[2]) => hooks.run(e, { transcript_path: transcriptPath, ...input }, ctx), hooks: (e: EventName) => hooks.hooks(e) } : hooks;
  attachHooks(slots, withTranscript, { stopGuardMs: options.stopGuardMs, onDecision: (event, decision) => trace({ kind: 'hooks', event, decision }), onWarning: warn });

  let currentCwd = workspace;
  const roots: string[] = [];
  const dynamicEnv: Record<string, string> = {};
  /**
   * Events fired from the session itself rather than from a slot (Setup aside): CwdChanged,
   * FileChanged, DirectoryAdded, UserPromptExpansion, the task and worktree events,
   * ConfigChange. An engine error is reported and treated as "no hook decided".
   */
  const emit = async (event: EventName, input: Record<string, unknown>, cwd = currentCwd): Promise<Decision> => {
    let decision: Decision;
    try {
      decision = await withTranscript.run(event, { ...input, permission_mode: permissions.mode, cwd }, { permissionMode: permissions.mode, cwd });
    } catch (e) {
      warn(`${event} hooks failed: ${(e as Error)?.message ?? String(e)}`);
      decision = emptyDecision(event);
    }
    trace({ kind: 'hooks', event, decision });
    return decision;
  };
  /** CLAUDE_ENV_FILE exports of CwdChanged/FileChanged: later Bash commands see them. */
  const applyEnv = (d: Decision) => {
    const added = d.eventOutput.env;
    if (added && typeof added === 'object') Object.assign(dynamicEnv, added);
  };

  const messages: Message[] = [];
  const onMessage = (m: Message, actor: Actor) => {
    trace({ kind: 'message', message: m, actor });
    if (transcriptPath && !actor.agentId) appendFileSync(transcriptPath, `${JSON.stringify(m)}\n`);
    if (options.transcriptDir && actor.agentId) appendFileSync(path.join(options.transcriptDir, 'subagents', `${actor.agentId}.jsonl`), `${JSON.stringify(m)}\n`);
  };
  const addContext = (texts: readonly string[], source: string) => {
    if (texts.length === 0) return;
    const m: Message = { role: 'user', content: texts.map((t) => `<hook-context source="${source}">${t}</hook-context>`).join('\n') };
    messages.push(m);
    onMessage(m, {});
  };
  if (setupDecision) addContext(setupDecision.additionalContext, 'Setup');
  addContext(started.decision.additionalContext, 'SessionStart');

  if (options.loadInstructions !== false) {
    const file = path.join(workspace, 'CLAUDE.md');
    let text: string | undefined;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      text = undefined;
    }
    if (text !== undefined) {
      messages.push({ role: 'system', content: `Project instructions (${file}):\n${text}` });
      await slots.instructionsLoaded.fire({ filePath: file, memoryType: 'Project', loadReason: 'session_start', mode: permissions.mode, cwd: workspace });
    }
  }

  const prompter = options.prompter ?? {};
  const elicitUI = async (request: ElicitationRequest, signal: AbortSignal = new AbortController().signal): Promise<ElicitationResponse> =>
    prompter.elicit ? prompter.elicit(request, signal) : { action: 'decline' };

  // 3. MCP servers start only now, with the frozen env.
  let mcp: McpAttachment | undefined;
  const registry = toolRegistry([...builtinTools(), ...(options.tools ?? [])]);
  if (options.mcp) {
    try {
      mcp = await options.mcp({
        sessionId,
        cwd: workspace,
        env: hooks.env,
        // Events the MCP module fires itself (Elicitation, ElicitationResult) are traced like the rest.
        hooks: {
          run: async (event, input, ctx) => {
            const decision = await withTranscript.run(event, input, ctx);
            trace({ kind: 'hooks', event, decision });
            return decision;
          },
        },
        permissionMode: () => permissions.mode,
        elicitUI,
        notify: async (n) => {
          await slots.notification.fire({ mode: permissions.mode, cwd: currentCwd, message: n.message, ...(n.title !== undefined ? { title: n.title } : {}), notificationType: n.notification_type });
        },
        onWarning: warn,
      });
      for (const t of mcp.tools) {
        if (registry.has(t.name)) warn(`MCP tool ${t.name} clashes with a tool of the same name; skipped`);
        else registry.set(t.name, t);
      }
    } catch (e) {
      await manager.dispose(sessionId);
      if (owned) await manager.close();
      throw e;
    }
  }

  // 4. Pipeline, loop, Task tool, compaction.
  const pipeline = createToolPipeline({
    tools: registry,
    permissions,
    slots,
    workspace,
    sessionId,
    env: () => (Object.keys(dynamicEnv).length ? { ...hooks.env, ...dynamicEnv } : hooks.env),
    cwd: () => currentCwd,
    roots: () => roots,
    onCwd: async (dir) => {
      try {
        await changeCwd(dir);
        return undefined;
      } catch (e) {
        return `Shell cwd was reset to ${currentCwd}: ${(e as Error).message}`;
      }
    },
    prompter,
    ...(options.autoClassifier ? { autoClassifier: options.autoClassifier } : {}),
    ...(options.toolConcurrency ? { concurrency: options.toolConcurrency } : {}),
    onOutcome: (outcome, actor) => trace({ kind: 'tool', outcome, actor }),
    onWarning: warn,
  });
  const compaction = createCompactionService({ slots, cwd: workspace, mode: () => permissions.mode, ...(options.summarize ? { summarize: options.summarize } : {}) });
  const loop: LoopOptions = {
    model: options.model,
    pipeline,
    slots,
    permissions,
    get cwd() {
      return currentCwd;
    },
    tools: () => [...registry.values()],
    compaction,
    ...(options.maxSteps !== undefined ? { maxSteps: options.maxSteps } : {}),
    ...(options.autoCompactChars !== undefined ? { autoCompactChars: options.autoCompactChars } : {}),
    display: (text, actor) => trace({ kind: 'display', text, actor }),
    onMessage,
    onWarning: warn,
  };
  // Worktrees of `isolation: "worktree"` subagents: a WorktreeCreate hook replaces `git worktree
  // add` (its printed path is the worktree; any failure fails creation); the path joins the
  // confinement roots while the subagent runs; WorktreeRemove when it finishes.
  const worktrees: WorktreeManager = {
    async create(name) {
      const d = await emit('WorktreeCreate', { name });
      let wt: Worktree;
      if (d.hooks.length > 0) {
        if (d.blocked) throw new Error(d.reason ?? 'a WorktreeCreate hook failed');
        // The path is the last non-empty line of stdout, ANSI escapes stripped (shell banners come first).
        const raw = d.eventOutput.worktreePath;
        const printed = typeof raw === 'string' ? raw.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').split(/\r?\n/).map((l) => l.trim()).filter(Boolean).pop() : undefined;
        if (printed === undefined) throw new Error('the WorktreeCreate hook printed no path');
        if (path.isAbsolute(printed) && printed.split(/[\\/]/).some((seg) => seg === '.' || seg === '..')) throw new Error(`the WorktreeCreate hook's path ${printed} contains . or .. segments`);
        let real: string;
        try {
          real = realpathSync.native(path.resolve(currentCwd, printed));
        } catch {
          throw new Error(`the WorktreeCreate hook's path ${printed} does not exist`);
        }
        if (!statSync(real).isDirectory()) throw new Error(`the WorktreeCreate hook's path ${printed} is not a directory`);
        wt = { path: real, byHook: true };
      } else {
        const dir = path.join(workspace, '.claude', 'worktrees', name);
        try {
          await execFileP('git', ['worktree', 'add', '--detach', dir, 'HEAD'], { cwd: workspace });
        } catch (e) {
          throw new Error(`git worktree add failed: ${String((e as { stderr?: string }).stderr ?? (e as Error).message).trim()}`);
        }
        wt = { path: realpathSync.native(dir), byHook: false };
      }
      if (!isInsideAny(workspace, roots, wt.path)) roots.push(wt.path);
      return wt;
    },
    async remove(wt) {
      await emit('WorktreeRemove', { worktree_path: wt.path });
      const i = roots.indexOf(wt.path);
      if (i >= 0) roots.splice(i, 1);
      if (!wt.byHook) {
        await execFileP('git', ['worktree', 'remove', '--force', wt.path], { cwd: workspace }).catch((e) => warn(`git worktree remove ${wt.path}: ${String((e as { stderr?: string }).stderr ?? (e as Error).message).trim()}`));
      }
    },
  };

  // The task list (TaskCreated, TaskStarted, TaskCompleted); a host's own tool of the same name wins.
  const taskList = createTaskList((event, input) => emit(event, input));
  for (const t of taskList.tools()) if (!registry.has(t.name)) registry.set(t.name, t);
  if (!registry.has('Task')) {
    registry.set(
      'Task',
      taskTool({
        loop: () => loop,
        subagents: options.subagents ?? { 'general-purpose': {} },
        withAgent: (file, fn) => hooks.withAgent(file, () => fn()),
        worktrees,
        ...(options.transcriptDir ? { transcriptDir: options.transcriptDir } : {}),
      }) as unknown as HostTool,
    );
  }

  // Working directory, added directories and the FileChanged watcher.
  const pendingEvents = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>): Promise<T> => {
    pendingEvents.add(p);
    void p.finally(() => pendingEvents.delete(p)).catch(() => {});
    return p;
  };
  const watchPathsOf = (d: Decision): string[] | undefined => (Array.isArray(d.eventOutput.watchPaths) ? (d.eventOutput.watchPaths as unknown[]).filter((p): p is string => typeof p === 'string') : undefined);
  const watcher = createFileWatcher({
    ...(options.fileWatchDebounceMs !== undefined ? { debounceMs: options.fileWatchDebounceMs } : {}),
    onWarning: warn,
    onChange: (file: string, kind: FileChangeKind) => {
      if (ended || ending) return;
      void track(
        emit('FileChanged', { file_path: file, event: kind }).then((d) => {
          applyEnv(d);
          const paths = watchPathsOf(d);
          if (paths) watcher.set('dynamic', paths);
        }),
      );
    },
  });
  // A FileChanged matcher names literal files in the working directory ("'.envrc|.env'").
  const matcherPaths = () =>
    hooks
      .hooks('FileChanged')
      .flatMap((h) => (h.matcher ? h.matcher.split('|').map((n) => n.trim()) : []))
      .filter((n) => n !== '' && n !== '*')
      .map((n) => path.resolve(currentCwd, n));
  watcher.set('static', matcherPaths());
  watcher.set('dynamic', watchPathsOf(started.decision) ?? []);

  // ConfigChange: the settings files the session loaded (and the workspace's project/local
  // files, which may appear later) are watched; a change fires ConfigChange with the hooks of
  // the current snapshot. A block keeps the snapshot (except policy_settings, which always
  // applies); otherwise the session is rebound to the re-read config.
  const CONFIG_SOURCES: Record<string, string> = { user: 'user_settings', project: 'project_settings', local: 'local_settings', managed: 'policy_settings' };
  const configFiles = () => {
    const m = new Map<string, string>();
    for (const f of hooks.snapshot.config.files) if (CONFIG_SOURCES[f.kind]) m.set(path.resolve(f.file), CONFIG_SOURCES[f.kind]!);
    m.set(path.join(workspace, '.claude', 'settings.json'), 'project_settings');
    m.set(path.join(workspace, '.claude', 'settings.local.json'), 'local_settings');
    return m;
  };
  let configQueue: Promise<unknown> = Promise.resolve();
  const configWatcher = createFileWatcher({
    ...(options.fileWatchDebounceMs !== undefined ? { debounceMs: options.fileWatchDebounceMs } : {}),
    onWarning: warn,
    onChange: (file: string) => {
      if (ended || ending) return;
      // One change at a time: each is judged against the snapshot the previous one left.
      configQueue = track(
        configQueue.then(async () => {
          const source = configFiles().get(file) ?? 'project_settings';
          const d = await emit('ConfigChange', { source, file_path: file });
          if (d.blocked && source !== 'policy_settings') {
            trace({ kind: 'session', text: `config change of ${file} blocked by a ConfigChange hook; the session keeps its snapshot` });
            return;
          }
          if (ended || ending) return;
          manager.invalidate(workspace);
          await manager.rebind(sessionId);
          configWatcher.set('settings', [...configFiles().keys()]);
          watcher.set('static', matcherPaths());
          trace({ kind: 'session', text: `config change of ${file} applied (${source})` });
        }).catch((e) => warn(`ConfigChange: ${(e as Error).message}`)),
      );
    },
  });
  configWatcher.set('settings', [...configFiles().keys()]);

  async function changeCwd(dir: string): Promise<void> {
    let real: string;
    try {
      real = realpathSync.native(path.resolve(currentCwd, dir));
    } catch (e) {
      throw new Error(`${dir} cannot be used as the working directory: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    if (!statSync(real).isDirectory()) throw new Error(`${real} is not a directory`);
    if (!isInsideAny(workspace, roots, real)) throw new Error(`${real} is outside the workspace ${workspace}`);
    if (real === currentCwd) return;
    const old = currentCwd;
    currentCwd = real;
    watcher.set('static', matcherPaths());
    const d = await emit('CwdChanged', { old_cwd: old, new_cwd: real });
    applyEnv(d);
    const paths = watchPathsOf(d);
    if (paths) watcher.set('dynamic', paths);
  }

  async function addDirectory(dir: string, source: 'slash_command' | 'register_repo_root' = 'slash_command'): Promise<void> {
    let real: string;
    try {
      real = realpathSync.native(path.resolve(currentCwd, dir));
    } catch (e) {
      throw new Error(`addDirectory: ${dir} cannot be added: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    if (!statSync(real).isDirectory()) throw new Error(`addDirectory: ${real} is not a directory`);
    if (isInsideAny(workspace, roots, real)) throw new Error(`addDirectory: ${real} is already a working directory`);
    roots.push(real);
    const d = await emit('DirectoryAdded', { directory: real, source });
    // /add-dir: the hooks' systemMessage reaches the model as context.
    if (source === 'slash_command') addContext(d.systemMessages, 'DirectoryAdded');
  }

  // 5. Turns, queueing, heartbeat, shutdown.
  let running: { controller: AbortController; done: Promise<unknown> } | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  let ended = false;
  let ending: Promise<void> | undefined;

  async function runTurn(prompt: string, outer?: AbortSignal): Promise<TurnResult> {
    const controller = new AbortController();
    const onAbort = () => controller.abort(outer?.reason);
    outer?.addEventListener('abort', onAbort, { once: true });
    const signal = controller.signal;
    const turn = (async (): Promise<TurnResult> => {
      // A slash command expands first; a UserPromptExpansion block erases it like a prompt block.
      const command = resolveSlashCommand(workspace, prompt);
      let expansionContext: string[] = [];
      if (command) {
        const d = await emit('UserPromptExpansion', { expansion_type: 'slash_command', command_name: command.name, command_args: command.args, command_source: command.source, prompt });
        if (d.blocked) return { status: 'blocked', finalText: '', steps: 0, reason: d.reason ?? `/${command.name} was blocked by a UserPromptExpansion hook` };
        if (!d.continue) return { status: 'stopped', finalText: '', steps: 0, reason: d.stopReason ?? 'a UserPromptExpansion hook stopped the agent' };
        expansionContext = d.additionalContext;
        // A skill's frontmatter hooks are registered when it is invoked, for the rest of the session.
        if (command.source === 'skill') await hooks.addSkill(command.file).catch((e) => warn(`skill ${command.name}: ${(e as Error).message}`));
        prompt = command.expanded;
      }
      const submitted = await slots.promptSubmit.fire({ prompt, mode: permissions.mode, cwd: currentCwd, additionalContext: [] });
      if (submitted.vetoed) {
        // The prompt is erased: it never reaches the conversation.
        const status = submitted.event.stop ? 'stopped' : 'blocked';
        return { status, finalText: '', steps: 0, reason: submitted.vetoed.reason };
      }
      const userMessage: Message = { role: 'user', content: prompt };
      messages.push(userMessage);
      onMessage(userMessage, {});
      addContext(expansionContext, 'UserPromptExpansion');
      addContext(submitted.event.additionalContext, 'UserPromptSubmit');
      const turnId = randomUUID();
      await slots.turnStart.fire({ turnId, mode: permissions.mode, cwd: currentCwd });
      const result = await runLoop(loop, { messages, signal, actor: {}, turnId, stopSlot: 'beforeStop' });
      if (result.status === 'interrupted') await slots.interrupt.fire({ mode: permissions.mode, cwd: currentCwd, reason: result.reason ?? 'interrupted' });
      return result;
    })();
    running = { controller, done: turn };
    try {
      return await turn;
    } finally {
      outer?.removeEventListener('abort', onAbort);
      if (running?.done === turn) running = undefined;
    }
  }

  const startedAt = Date.now();
  const heartbeatMs = options.heartbeatMs ?? 60_000;
  let beating = false;
  const heartbeat =
    heartbeatMs > 0
      ? setInterval(() => {
          if (beating || ended) return; // never two ticks at once
          beating = true;
          void slots.sessionHeartbeat
            .fire({ uptimeMs: Date.now() - startedAt, intervalMs: heartbeatMs, mode: permissions.mode, cwd: currentCwd })
            .catch((e) => warn(`SessionHeartbeat: ${(e as Error).message}`))
            .finally(() => (beating = false));
        }, heartbeatMs)
      : undefined;
  heartbeat?.unref();

  const budgetMs = options.sessionEndBudgetMs ?? DEFAULT_SESSION_END_BUDGET_MS;
  async function end(reason = 'other'): Promise<void> {
    ending ??= (async () => {
      if (heartbeat) clearInterval(heartbeat);
      removeSignalHandlers();
      watcher.close();
      configWatcher.close();
      if (running) {
        running.controller.abort('session ending');
        await running.done.catch(() => {});
      }
      // Graceful shutdown: SessionEnd hooks get their own short budget, then are aborted.
      const controller = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        slots.sessionEnd.fire({ reason, mode: permissions.mode, cwd: currentCwd, signal: controller.signal }),
        new Promise<void>((resolve) => {
          timer = setTimeout(() => {
            controller.abort(new Error(`SessionEnd budget of ${budgetMs} ms spent`));
            warn(`SessionEnd hooks did not finish within ${budgetMs} ms`);
            resolve();
          }, budgetMs);
        }),
      ]).finally(() => clearTimeout(timer));
      ended = true;
      await Promise.allSettled([...pendingEvents]);
      await mcp?.close().catch((e) => warn(`MCP close: ${(e as Error).message}`));
      await manager.dispose(sessionId);
      if (owned) await manager.close();
      trace({ kind: 'session', text: `session ${sessionId} ended (${reason})` });
    })();
    return ending;
  }

  const signalHandlers: Array<[NodeJS.Signals, () => void]> = [];
  function removeSignalHandlers() {
    for (const [sig, h] of signalHandlers.splice(0)) process.removeListener(sig, h);
  }
  if (options.handleSignals) {
    for (const [sig, code] of [
      ['SIGINT', 130],
      ['SIGTERM', 143],
    ] as const) {
      const h = () => {
        trace({ kind: 'session', text: `${sig} received: ending the session` });
        void end('other').finally(() => process.exit(code));
      };
      signalHandlers.push([sig, h]);
      process.once(sig, h);
    }
  }

  const session: HostSession = {
    id: sessionId,
    workspace,
    get env() {
      return hooks.env;
    },
    messages,
    slots,
    permissions,
    tools: registry,
    pipeline,
    hooks,
    start: started.decision,
    ...(setupDecision ? { setup: setupDecision } : {}),
    submit(prompt, opts = {}) {
      if (ended || ending) return Promise.reject(new Error(`session ${sessionId} has ended`));
      if (running) void slots.promptQueued.fire({ prompt, mode: permissions.mode, cwd: currentCwd });
      const next = queue.then(() => runTurn(prompt, opts.signal));
      queue = next.catch(() => {});
      return next;
    },
    interrupt(reason = 'interrupted by the user') {
      running?.controller.abort(reason);
    },
    async compact(instructions = '') {
      return compaction.compact(messages, { trigger: 'manual', instructions });
    },
    elicitUI,
    get cwd() {
      return currentCwd;
    },
    directories: roots,
    dynamicEnv,
    watchedPaths: () => watcher.paths(),
    tasks: () => taskList.tasks(),
    async setCwd(dir) {
      if (ended || ending) throw new Error(`session ${sessionId} has ended`);
      await changeCwd(dir);
    },
    async addDirectory(dir, source) {
      if (ended || ending) throw new Error(`session ${sessionId} has ended`);
      await addDirectory(dir, source);
    },
    end,
    get ended() {
      return ended;
    },
  };
  return { ok: true, session };
}

export { CompactionBlockedError };
