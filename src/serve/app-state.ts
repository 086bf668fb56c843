/**
 * The state of one review panel (app.ts builds it once per `createServeApp`): resolved paths,
 * the session source, the request guard, and the workspace lookups every route shares.
 */
import { userHome } from '../util/os-dirs.js';
import path from 'node:path';
import { existsSync } from 'node:fs';
import type { HookManager } from '../session/manager.js';
import { defaultPauseFilePath } from '../session/pause-file.js';
import { defaultTrustStorePath, readTrustStore, resolveWorkspace } from '../trust/index.js';
import { showableRealScript } from './redact.js';
import { defaultScriptCopiesDir, keepScriptCopies } from './script-copies.js';
import { newToken, type Guard } from './security.js';
import { hostSessions, pauseFileSessions, type SessionSource } from './sessions.js';
import { assessWorkspace, workspaceView, type WorkspaceLoadOptions, type WorkspaceView } from './workspaces.js';

export interface ServeOptions extends WorkspaceLoadOptions {
  /** Workspace directories to review. */
  workspaces?: string[];
  /** Also list the workspaces recorded in the trust store (default true). */
  storeWorkspaces?: boolean;
  /** A running HookManager (embedded mode): its sessions, its projects as workspaces, pause through it. */
  manager?: HookManager;
  /** After trust or revoke in the panel, rebind the manager's sessions on that workspace (default true). */
  rebindOnTrust?: boolean;
  /** JSONL audit log to read. */
  auditFile?: string;
  /** The team's audit in PostgreSQL (the policy server's sink): /api/audit reads it instead of auditFile. */
  auditPostgres?: { url: string; table?: string };
  /** Standalone pause file (default: defaultPauseFilePath()). Ignored when `manager` is given. */
  pauseFile?: string;
  /** Where copies of trusted scripts are kept (default: `trusted-scripts/` next to the trust store). */
  scriptCopiesDir?: string;
  /** Access token (default: 32 random bytes). */
  token?: string;
  /** Accepted `host:port` values of the Host header (startServe adds the bound address and localhost). */
  allowedHosts?: string[];
  /** Reported by /api/info. */
  version?: string;
  onWarning?: (message: string) => void;
}

/** Everything the routes read, resolved once from the options. */
export interface ServeState {
  options: ServeOptions;
  homeDir: string;
  storePath: string;
  loadOpts: WorkspaceLoadOptions;
  copiesDir: string;
  warn: (message: string) => void;
  manager: HookManager | undefined;
  sessions: SessionSource;
  guard: Guard;
}

export function serveState(options: ServeOptions): ServeState {
  const homeDir = options.trust?.homeDir ?? options.homeDir ?? userHome();
  const storePath = options.trust?.storePath ?? defaultTrustStorePath(process.env, homeDir);
  const loadOpts: WorkspaceLoadOptions = { ...options, trust: { ...options.trust, storePath, homeDir } };
  const copiesDir = options.scriptCopiesDir ?? defaultScriptCopiesDir(storePath);
  const warn = options.onWarning ?? (() => {});
  const manager = options.manager;
  const sessions: SessionSource = manager
    ? hostSessions(manager, options.auditFile)
    : pauseFileSessions(options.pauseFile ?? defaultPauseFilePath(process.env, homeDir), options.auditFile);
  const guard: Guard = {
    token: options.token ?? newToken(),
    allowedHosts: new Set((options.allowedHosts ?? []).map((h) => h.toLowerCase())),
  };
  return { options, homeDir, storePath, loadOpts, copiesDir, warn, manager, sessions, guard };
}

export class HttpError extends Error {
  constructor(
    readonly status: 400 | 404 | 409 | 500 | 503,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Known workspaces, de-duplicated by canonical identity, in order: given, sessions', the store's. */
export async function listWorkspaces(s: ServeState): Promise<Array<{ dir: string; identity: string }>> {
  const dirs = (s.options.workspaces ?? []).map((d) => path.resolve(d));
  if (s.manager)
    for (const id of s.manager.sessions()) {
      const h = s.manager.session(id);
      if (h) dirs.push(h.projectDir);
    }
  if (s.options.storeWorkspaces !== false) {
    try {
      for (const rec of Object.values((await readTrustStore(s.storePath)).workspaces)) if (existsSync(rec.path)) dirs.push(rec.path);
    } catch {
      // a store error shows on every workspace's state
    }
  }
  const seen = new Set<string>();
  const out: Array<{ dir: string; identity: string }> = [];
  for (const dir of dirs) {
    const w = await resolveWorkspace(dir);
    if (seen.has(w.identity)) continue;
    seen.add(w.identity);
    out.push({ dir, identity: w.identity });
  }
  return out;
}

export async function findWorkspace(s: ServeState, dir: string): Promise<{ dir: string; identity: string }> {
  const identity = (await resolveWorkspace(path.resolve(dir))).identity;
  const hit = (await listWorkspaces(s)).find((w) => w.identity === identity);
  if (!hit) throw new HttpError(404, `not a workspace of this panel: ${dir}`);
  return hit;
}

export async function viewWorkspace(s: ServeState, dir: string): Promise<WorkspaceView> {
  const a = await assessWorkspace(dir, s.loadOpts);
  // Seeing a trusted workspace means every referenced script has its trusted content: keep it for later diffs.
  if (a.report.state === 'trusted') await keepScriptCopies(a.report, s.copiesDir, (f) => showableRealScript(f, a.report.workspace.root));
  return workspaceView(a, { copiesDir: s.copiesDir });
}

/** Make a trust decision reach the host's running sessions on that workspace. */
export async function applyToSessions(s: ServeState, identity: string): Promise<void> {
  const manager = s.manager;
  if (!manager) return;
  for (const id of manager.sessions()) {
    const h = manager.session(id);
    if (!h || (await resolveWorkspace(h.projectDir)).identity !== identity) continue;
    manager.invalidate(h.projectDir);
    if (s.options.rebindOnTrust === false) continue;
    try {
      await manager.rebind(id);
    } catch (e) {
      s.warn(`serve: could not rebind session ${id} after a trust change: ${(e as Error).message}`);
    }
  }
}
