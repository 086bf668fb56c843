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
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import { revokeWorkspace, trustWorkspace, TrustRefusedError, TrustStoreError } from '../trust/index.js';
import {
  applyToSessions,
  findWorkspace,
  HttpError,
  listWorkspaces,
  type ServeOptions,
  type ServeState,
  serveState,
  viewWorkspace,
} from './app-state.js';
import { queryAudit } from './audit.js';
import { queryPostgresAudit } from './audit-postgres.js';
import { pageHtml } from './page/html.js';
import { APP_JS } from './page/app.js';
import { STYLE_CSS } from './page/style.js';
import { showableRealScript } from './redact.js';
import { keepScriptCopies, pruneScriptCopies } from './script-copies.js';
import { guardMiddleware, headersMiddleware, hostPort } from './security.js';
import { assessWorkspace } from './workspaces.js';

export type { ServeOptions } from './app-state.js';

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

function parseBody<T>(schema: z.ZodType<T>, raw: unknown): T {
  const r = schema.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0]!;
    throw new HttpError(400, `invalid request body at ${i.path.join('.') || '(root)'}: ${i.message}`);
  }
  return r.data;
}

async function readJson(c: { req: { json(): Promise<unknown> } }): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new HttpError(400, 'request body is not valid JSON');
  }
}

export function createServeApp(options: ServeOptions = {}): ServeApp {
  const s = serveState(options);
  const { guard } = s;
  const app = new Hono();
  mountShell(app, s);
  mountWorkspaceRoutes(app, s);
  mountTrustRoutes(app, s);
  mountSessionRoutes(app, s);
  mountAuditRoute(app, s);
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

/** The guards, the error and 404 shapes, the page and its assets. */
function mountShell(app: Hono, s: ServeState): void {
  app.use('*', headersMiddleware());
  app.use('*', guardMiddleware(s.guard));
  app.use('/api/*', bodyLimit({ maxSize: 64 * 1024, onError: (c) => c.json({ error: 'request body too large' }, 413) }));

  app.onError((err, c) => {
    if (err instanceof HttpError) return c.json({ error: err.message, ...err.extra }, err.status);
    s.warn(`serve: ${(err as Error)?.stack ?? String(err)}`);
    return c.json({ error: `internal error: ${(err as Error)?.message ?? String(err)}` }, 500);
  });
  app.notFound((c) => c.json({ error: `no such route: ${c.req.method} ${c.req.path}` }, 404));

  const page = (c: Context) => c.html(pageHtml(s.guard.token));
  app.get('/', page);
  app.get('/sessions', page);
  app.get('/audit', page);
  app.get('/assets/app.js', (c) => c.body(APP_JS, 200, { 'Content-Type': 'text/javascript; charset=utf-8' }));
  app.get('/assets/style.css', (c) => c.body(STYLE_CSS, 200, { 'Content-Type': 'text/css; charset=utf-8' }));
}

/** /api/info, /api/workspaces, /api/workspace. */
function mountWorkspaceRoutes(app: Hono, s: ServeState): void {
  const { options } = s;
  app.get('/api/info', (c) =>
    c.json({
      mode: s.sessions.mode,
      version: options.version,
      store: s.storePath,
      auditFile: options.auditFile ?? null,
      pauseFile: s.sessions.pauseFile ?? null,
      scriptCopies: s.copiesDir,
    }),
  );

  app.get('/api/workspaces', async (c) => {
    const list = await listWorkspaces(s);
    return c.json({ workspaces: await Promise.all(list.map((w) => viewWorkspace(s, w.dir))) });
  });

  app.get('/api/workspace', async (c) => {
    const dir = c.req.query('dir');
    if (!dir) throw new HttpError(400, 'query parameter dir is required');
    return c.json(await viewWorkspace(s, (await findWorkspace(s, dir)).dir));
  });
}

/** POST /api/trust and /api/revoke: a refused digest is 409, a store failure 503. */
function mountTrustRoutes(app: Hono, s: ServeState): void {
  const { storePath, copiesDir } = s;
  app.post('/api/trust', async (c) => {
    const body = parseBody(trustBody, await readJson(c));
    const ws = await findWorkspace(s, body.dir);
    const a = await assessWorkspace(ws.dir, s.loadOpts);
    try {
      await trustWorkspace(a.report, { expectedDigest: body.digest, allowUnpinned: body.allowUnpinned === true });
    } catch (e) {
      if (e instanceof TrustRefusedError) throw new HttpError(409, e.message, { digest: a.report.digest ?? null, state: a.report.state });
      if (e instanceof TrustStoreError) throw new HttpError(503, e.message);
      throw e;
    }
    await keepScriptCopies(a.report, copiesDir, (f) => showableRealScript(f, a.report.workspace.root));
    await pruneScriptCopies(storePath, copiesDir);
    await applyToSessions(s, ws.identity);
    return c.json({ trusted: body.digest, workspace: await viewWorkspace(s, ws.dir) });
  });

  app.post('/api/revoke', async (c) => {
    const body = parseBody(revokeBody, await readJson(c));
    const ws = await findWorkspace(s, body.dir);
    let removed: boolean;
    try {
      const r = await revokeWorkspace({
        workspaceDir: ws.dir,
        storePath,
        homeDir: s.homeDir,
        ...(body.digest !== null ? { expectedDigest: body.digest } : {}),
      });
      removed = r.removed !== undefined;
    } catch (e) {
      if (e instanceof TrustRefusedError) throw new HttpError(409, e.message);
      if (e instanceof TrustStoreError) throw new HttpError(503, e.message);
      throw e;
    }
    await pruneScriptCopies(storePath, copiesDir);
    await applyToSessions(s, ws.identity);
    return c.json({ revoked: removed, workspace: await viewWorkspace(s, ws.dir) });
  });
}

/** GET /api/sessions and POST /api/sessions/pause. */
function mountSessionRoutes(app: Hono, s: ServeState): void {
  const { sessions } = s;
  app.get('/api/sessions', async (c) => {
    const { sessions: list, warning } = await sessions.list();
    return c.json({
      mode: sessions.mode,
      pauseFile: sessions.pauseFile ?? null,
      auditFile: s.options.auditFile ?? null,
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
}

/** GET /api/audit: the team's PostgreSQL audit when configured, else the JSONL file. */
function mountAuditRoute(app: Hono, s: ServeState): void {
  const { options } = s;
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
}
