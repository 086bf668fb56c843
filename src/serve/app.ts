/**
 * `createServeApp`: the trust review panel and its JSON API as a Hono app (a fetch handler),
 * so a host can mount it on its own server or let `startServe` listen on loopback.
 *
 * Routes (docs/serve.md has the request and response shapes):
 *   GET  /, /sessions, /audit                   the page (HTML shell + /assets/app.js, /assets/style.css)
 *   GET  /api/info                              mode, files, version
 *   GET  /api/workspaces                        every workspace with its hooks, state, digest, changes, diffs
 *   GET  /api/workspace?dir=DIR                 one workspace
 *   POST /api/trust   {dir, digest, allowUnpinned?}  trust exactly that digest (409 when it changed, or unpinned hooks without allowUnpinned)
 *   POST /api/revoke  {dir, digest|null}        revoke; digest = the trusted digest shown (409 when it changed)
 *   GET  /api/sessions                          sessions with pause state
 *   POST /api/sessions/pause {id, paused}       pause or resume
 *   GET  /api/audit?session&event&outcome&limit audit entries, firings for the timeline, filter facets
 */
import os from 'node:os';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import type { HookManager } from '../session/manager.js';
import { defaultPauseFilePath } from '../session/pause-file.js';
import {
  defaultTrustStorePath,
  readTrustStore,
  resolveWorkspace,
  revokeWorkspace,
  trustWorkspace,
  TrustRefusedError,
  TrustStoreError,
} from '../trust/index.js';
import { queryAudit } from './audit.js';
import { queryPostgresAudit } from './audit-postgres.js';
import { pageHtml } from './page/html.js';
import { APP_JS } from './page/app.js';
import { STYLE_CSS } from './page/style.js';
import { showableRealScript } from './redact.js';
import { defaultScriptCopiesDir, keepScriptCopies, pruneScriptCopies } from './script-copies.js';
import { guardMiddleware, headersMiddleware, hostPort, newToken, type Guard } from './security.js';
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

export interface ServeApp {
  /** The fetch handler (Request → Response). */
  fetch: (request: Request) => Promise<Response>;
  readonly token: string;
  /** Accept another `host:port` in Host and Origin (e.g. after listening on a random port). */
  allowHost(host: string, port?: number): void;
  readonly allowedHosts: readonly string[];
  app: Hono;
}

const digestSchema = z.string().regex(/^sha256:[0-9a-f]{64}$/, 'digest must be sha256:<64 hex digits>');
const trustBody = z.object({ dir: z.string().min(1), digest: digestSchema, allowUnpinned: z.boolean().optional() }).strict();
const revokeBody = z.object({ dir: z.string().min(1), digest: digestSchema.nullable() }).strict();
const pauseBody = z.object({ id: z.string().min(1).max(512), paused: z.boolean() }).strict();

class HttpError extends Error {
  constructor(
    readonly status: 400 | 404 | 409 | 500 | 503,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

function parseBody<T>(schema: z.ZodType<T>, raw: unknown): T {
  const r = schema.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0]!;
    throw new HttpError(400, `invalid request body at ${i.path.join('.') || '(root)'}: ${i.message}`);
  }
  return r.data;
}

export function createServeApp(options: ServeOptions = {}): ServeApp {
  const homeDir = options.trust?.homeDir ?? options.homeDir ?? os.homedir();
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

  /** Known workspaces, de-duplicated by canonical identity, in order: given, sessions', the store's. */
  async function workspaces(): Promise<Array<{ dir: string; identity: string }>> {
    const dirs = (options.workspaces ?? []).map((d) => path.resolve(d));
    if (manager)
      for (const id of manager.sessions()) {
        const h = manager.session(id);
        if (h) dirs.push(h.projectDir);
      }
    if (options.storeWorkspaces !== false) {
      try {
        for (const rec of Object.values((await readTrustStore(storePath)).workspaces)) if (existsSync(rec.path)) dirs.push(rec.path);
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

  async function findWorkspace(dir: string): Promise<{ dir: string; identity: string }> {
    const identity = (await resolveWorkspace(path.resolve(dir))).identity;
    const hit = (await workspaces()).find((w) => w.identity === identity);
    if (!hit) throw new HttpError(404, `not a workspace of this panel: ${dir}`);
    return hit;
  }

  async function view(dir: string): Promise<WorkspaceView> {
    const a = await assessWorkspace(dir, loadOpts);
    // Seeing a trusted workspace means every referenced script has its trusted content: keep it for later diffs.
    if (a.report.state === 'trusted') await keepScriptCopies(a.report, copiesDir, (f) => showableRealScript(f, a.report.workspace.root));
    return workspaceView(a, { copiesDir });
  }

  /** Make a trust decision reach the host's running sessions on that workspace. */
  async function applyToSessions(identity: string): Promise<void> {
    if (!manager) return;
    for (const id of manager.sessions()) {
      const h = manager.session(id);
      if (!h || (await resolveWorkspace(h.projectDir)).identity !== identity) continue;
      manager.invalidate(h.projectDir);
      if (options.rebindOnTrust === false) continue;
      try {
        await manager.rebind(id);
      } catch (e) {
        warn(`serve: could not rebind session ${id} after a trust change: ${(e as Error).message}`);
      }
    }
  }

  const app = new Hono();
  app.use('*', headersMiddleware());
  app.use('*', guardMiddleware(guard));
  app.use('/api/*', bodyLimit({ maxSize: 64 * 1024, onError: (c) => c.json({ error: 'request body too large' }, 413) }));

  app.onError((err, c) => {
    if (err instanceof HttpError) return c.json({ error: err.message, ...err.extra }, err.status);
    warn(`serve: ${(err as Error)?.stack ?? String(err)}`);
    return c.json({ error: `internal error: ${(err as Error)?.message ?? String(err)}` }, 500);
  });
  app.notFound((c) => c.json({ error: `no such route: ${c.req.method} ${c.req.path}` }, 404));

  const page = (c: Context) => c.html(pageHtml(guard.token));
  app.get('/', page);
  app.get('/sessions', page);
  app.get('/audit', page);
  app.get('/assets/app.js', (c) => c.body(APP_JS, 200, { 'Content-Type': 'text/javascript; charset=utf-8' }));
  app.get('/assets/style.css', (c) => c.body(STYLE_CSS, 200, { 'Content-Type': 'text/css; charset=utf-8' }));

  const readJson = async (c: { req: { json(): Promise<unknown> } }): Promise<unknown> => {
    try {
      return await c.req.json();
    } catch {
      throw new HttpError(400, 'request body is not valid JSON');
    }
  };

  app.get('/api/info', (c) =>
    c.json({
      mode: sessions.mode,
      version: options.version,
      store: storePath,
      auditFile: options.auditFile ?? null,
      pauseFile: sessions.pauseFile ?? null,
      scriptCopies: copiesDir,
    }),
  );

  app.get('/api/workspaces', async (c) => {
    const list = await workspaces();
    return c.json({ workspaces: await Promise.all(list.map((w) => view(w.dir))) });
  });

  app.get('/api/workspace', async (c) => {
    const dir = c.req.query('dir');
    if (!dir) throw new HttpError(400, 'query parameter dir is required');
    return c.json(await view((await findWorkspace(dir)).dir));
  });

  app.post('/api/trust', async (c) => {
    const body = parseBody(trustBody, await readJson(c));
    const ws = await findWorkspace(body.dir);
    const a = await assessWorkspace(ws.dir, loadOpts);
    try {
      await trustWorkspace(a.report, { expectedDigest: body.digest, allowUnpinned: body.allowUnpinned === true });
    } catch (e) {
      if (e instanceof TrustRefusedError) throw new HttpError(409, e.message, { digest: a.report.digest ?? null, state: a.report.state });
      if (e instanceof TrustStoreError) throw new HttpError(503, e.message);
      throw e;
    }
    await keepScriptCopies(a.report, copiesDir, (f) => showableRealScript(f, a.report.workspace.root));
    await pruneScriptCopies(storePath, copiesDir);
    await applyToSessions(ws.identity);
    return c.json({ trusted: body.digest, workspace: await view(ws.dir) });
  });

  app.post('/api/revoke', async (c) => {
    const body = parseBody(revokeBody, await readJson(c));
    const ws = await findWorkspace(body.dir);
    let removed: boolean;
    try {
      const r = await revokeWorkspace({
        workspaceDir: ws.dir,
        storePath,
        homeDir,
        ...(body.digest !== null ? { expectedDigest: body.digest } : {}),
      });
      removed = r.removed !== undefined;
    } catch (e) {
      if (e instanceof TrustRefusedError) throw new HttpError(409, e.message);
      if (e instanceof TrustStoreError) throw new HttpError(503, e.message);
      throw e;
    }
    await pruneScriptCopies(storePath, copiesDir);
    await applyToSessions(ws.identity);
    return c.json({ revoked: removed, workspace: await view(ws.dir) });
  });

  app.get('/api/sessions', async (c) => {
    const { sessions: list, warning } = await sessions.list();
    return c.json({
      mode: sessions.mode,
      pauseFile: sessions.pauseFile ?? null,
      auditFile: options.auditFile ?? null,
      sessions: list,
      ...(warning ? { warning } : {}),
    });
  });

  app.post('/api/sessions/pause', async (c) => {
    const body = parseBody(pauseBody, await readJson(c));
    let found: boolean;
    try {
      found = await sessions.setPaused(body.id, body.paused);
    } catch (e) {
      throw new HttpError(503, (e as Error).message);
    }
    if (!found) throw new HttpError(404, `no such session: ${body.id}`);
    return c.json({ id: body.id, paused: body.paused });
  });

  // The pg client loads on the first request that needs it (it is an optional dependency).
  let pgAudit: Promise<import('../audit/postgres.js').PostgresAudit> | undefined;
  const auditDb = async (): Promise<import('../audit/postgres.js').PostgresAudit | { error: string }> => {
    try {
      pgAudit ??= import('../audit/postgres.js').then((m) =>
        m.postgresAudit({ url: options.auditPostgres!.url, table: options.auditPostgres!.table }),
      );
      return await pgAudit;
    } catch (err) {
      pgAudit = undefined;
      return { error: `audit database: ${(err as Error).message}` };
    }
  };

  app.get('/api/audit', async (c) => {
    const q = c.req.query();
    const limit = q.limit !== undefined ? Number(q.limit) : undefined;
    if (limit !== undefined && !Number.isFinite(limit)) throw new HttpError(400, 'limit must be a number');
    const filters = {
      ...(q.session ? { session: q.session } : {}),
      ...(q.event ? { event: q.event } : {}),
      ...(q.outcome ? { outcome: q.outcome } : {}),
      ...(limit !== undefined ? { limit } : {}),
    };
    if (options.auditPostgres) {
      const db = await auditDb();
      if ('error' in db)
        return c.json({
          source: 'postgres',
          entries: [],
          total: 0,
          firings: [],
          malformed: 0,
          skippedBytes: 0,
          facets: { sessions: [], events: [], outcomes: [], projects: [], clients: [] },
          error: db.error,
        });
      return c.json(
        await queryPostgresAudit(db, {
          ...filters,
          ...(q.project ? { project: q.project } : {}),
          ...(q.client ? { client: q.client } : {}),
          ...(q.before ? { before: q.before } : {}),
        }),
      );
    }
    const result = await queryAudit(options.auditFile, filters);
    return c.json(result);
  });

  return {
    fetch: async (request) => app.fetch(request),
    get token() {
      return guard.token;
    },
    allowHost(host, port) {
      guard.allowedHosts.add((port === undefined ? host : hostPort(host, port)).toLowerCase());
    },
    get allowedHosts() {
      return [...guard.allowedHosts];
    },
    app,
  };
}
