/** The state one engine keeps between firings, as one plain record built from its options. */
import { namesFoldCase } from '../util/name-case.js';
import { userHome } from '../util/os-dirs.js';
import { createBackendTable, type BackendTable } from '../backends/table.js';
import { createMcpClientManager, isMcpClientManager, type McpClientManager } from '../mcp/manager.js';
import { fileAuditSink, type AuditSink, type FileAuditSink } from './audit.js';
import { memoryCounterStore, type SessionCounterStore } from './session-counters.js';
import { DEFAULT_CONTINUATION_CAP } from '../events/facts.js';
import { createHookSet, type HookSet } from './hooks.js';
import { createSemaphore, type Semaphore } from './semaphore.js';
import type { HookEngineOptions } from './types.js';

export interface EngineState {
  readonly options: HookEngineOptions;
  readonly projectDir: string;
  readonly baseCwd: string;
  readonly homeDir: string;
  /** `if` path rules compare names ignoring case (src/util/name-case.ts). */
  readonly foldCase: boolean;
  /** The engine-wide bound on live hook executions. */
  readonly semaphore: Semaphore;
  /** Consecutive Stop/SubagentStop blocks per session before the agent is let stop. */
  readonly stopCap: number;
  /** Per-session counters (Stop blocks, `once` hooks run): the caller's store, or this engine's memory. */
  readonly counters: SessionCounterStore;
  /** Background (async) hook executions still running. */
  readonly pending: Set<Promise<unknown>>;
  readonly warn: (message: string) => void;
  readonly audit: AuditSink | undefined;
  /** The JSONL audit log this engine opened (closed by close()). */
  readonly fileSink: FileAuditSink | undefined;
  readonly hooks: HookSet;
  readonly backends: BackendTable;
  /** MCP servers this engine started (closed by close()); a manager the caller passed is the caller's. */
  readonly ownedMcp: McpClientManager | undefined;
}

export function createEngineState(options: HookEngineOptions): EngineState {
  const projectDir = options.projectDir ?? options.cwd ?? process.cwd();
  const warn = options.onWarning ?? (() => {});
  const fileSink = typeof options.audit === 'string' ? fileAuditSink(options.audit, (e) => warn(`audit log: ${e.message}`)) : undefined;
  const ownedMcp =
    options.mcp && !isMcpClientManager(options.mcp) ? createMcpClientManager({ projectDir, onWarning: warn, ...options.mcp }) : undefined;
  const mcp = ownedMcp ?? (options.mcp as McpClientManager | undefined);
  return {
    options,
    projectDir,
    baseCwd: options.cwd ?? projectDir,
    homeDir: options.homeDir ?? userHome(),
    foldCase: namesFoldCase(),
    semaphore: createSemaphore(Math.max(1, options.maxConcurrentHooks ?? 8)),
    stopCap: options.stopHookMaxConsecutiveBlocks ?? DEFAULT_CONTINUATION_CAP,
    counters: options.sessionCounters ?? memoryCounterStore(),
    pending: new Set(),
    warn,
    audit: typeof options.audit === 'function' ? options.audit : fileSink?.write,
    fileSink,
    hooks: createHookSet(options.hooks, options.builtinHooks),
    backends: createBackendTable({
      passEnv: options.passEnv,
      killGraceMs: options.killGraceMs,
      sandbox: options.sandbox,
      spawner: options.spawner,
      waitForAsyncDeclaration: options.waitForAsyncDeclaration,
      http: options.http,
      prompt: options.prompt,
      mcp,
      backends: options.backends,
    }),
    ownedMcp,
  };
}
