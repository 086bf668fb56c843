/** The team view of the audit: the same query over the PostgreSQL sink's table (docs/teams.md). */
import { groupFirings, toView, type AuditEntryView, type AuditQuery, type AuditResult } from './audit.js';

export interface TeamAuditQuery extends AuditQuery {
  project?: string;
  client?: string;
  /** Paging: the previous page's `nextBefore` (a `timestamp|id` cursor: ties on time never skip a row). */
  before?: string;
}

export interface TeamAuditResult extends AuditResult {
  source: 'postgres';
  /** Pass as `before` for the next (older) page; absent on the last page. */
  nextBefore?: string;
  facets: AuditResult['facets'] & { projects: string[]; clients: string[] };
}

interface AuditDb {
  readonly table: string;
  query<R extends Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
}

/**
 * The team's timeline from the PostgreSQL sink (src/audit/postgres.ts): hook executions newest
 * first, filtered by project, client, session, event and outcome, a page at a time; firings are
 * grouped exactly by their firing id (no reconstruction needed). Never throws.
 */
export async function queryPostgresAudit(db: AuditDb, q: TeamAuditQuery = {}): Promise<TeamAuditResult> {
  const empty: TeamAuditResult = {
    source: 'postgres',
    entries: [],
    total: 0,
    firings: [],
    malformed: 0,
    skippedBytes: 0,
    facets: { sessions: [], events: [], outcomes: [], projects: [], clients: [] },
  };
  const where: string[] = ["kind = 'hook'"];
  const params: unknown[] = [];
  const add = (sql: string, v: unknown) => {
    params.push(v);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (q.project) add('project = ?', q.project);
  if (q.client) add('client = ?', q.client);
  if (q.session) add('session_id = ?', q.session);
  if (q.event) add('event = ?', q.event);
  if (q.outcome === 'blocked') where.push("(outcome = 'blocking' OR decision IN ('deny', 'block'))");
  else if (q.outcome) add('outcome = ?', q.outcome);
  const scope = where.join(' AND ');
  const limit = Math.min(2000, Math.max(1, Math.trunc(q.limit ?? 200)));
  try {
    const cursor = q.before?.split('|');
    if (cursor && (cursor.length !== 2 || !Number.isFinite(Date.parse(cursor[0]!))))
      return { ...empty, error: 'before must be a cursor from nextBefore' };
    const pageWhere = cursor ? `${scope} AND (ts, id) < ($${params.length + 1}::timestamptz, $${params.length + 2})` : scope;
    const pageParams = cursor ? [...params, cursor[0], cursor[1]] : params;
    const t = db.table;
    const [rows, total, facets] = await Promise.all([
      db.query<{ record: unknown; ts: Date; id: string }>(
        `SELECT record, ts, id FROM ${t} WHERE ${pageWhere} ORDER BY ts DESC, id DESC LIMIT ${limit + 1}`,
        pageParams,
      ),
      db.query<{ n: string }>(`SELECT count(*) AS n FROM ${t} WHERE ${scope}`, params),
      // Facets from the most recent records only: cheap on a large table, enough for the menus.
      db.query<{ session_id: string; event: string; outcome: string; project: string; client: string }>(
        `SELECT session_id, event, outcome, project, client FROM ${t} ORDER BY ts DESC LIMIT 5000`,
      ),
    ]);
    const page = rows.slice(0, limit);
    const entries = page.map((r) => toView(r.record)).filter((e): e is AuditEntryView => e !== undefined);
    const byFiring = new Map<string, AuditEntryView[]>();
    for (const e of [...entries].reverse()) {
      const k = e.firing_id ?? `${e.session_id}\0${e.ts}`;
      byFiring.set(k, [...(byFiring.get(k) ?? []), e]);
    }
    const firings = [...byFiring.values()]
      .flatMap((members) => groupFirings(members).map((g) => g.firing))
      .sort((a, b) => Date.parse(b.start) - Date.parse(a.start))
      .slice(0, 100);
    const uniq = (xs: string[]) => [...new Set(xs)];
    const out: TeamAuditResult = {
      source: 'postgres',
      entries,
      total: Number(total[0]?.n ?? 0),
      firings,
      malformed: page.length - entries.length,
      skippedBytes: 0,
      facets: {
        sessions: uniq(facets.map((f) => f.session_id)),
        events: uniq(facets.map((f) => f.event)).sort(),
        outcomes: uniq(facets.map((f) => f.outcome)).sort(),
        projects: uniq(facets.map((f) => f.project)).sort(),
        clients: uniq(facets.map((f) => f.client)).sort(),
      },
    };
    if (rows.length > limit) {
      const last = page[page.length - 1]!;
      // The row's own ts, at the database's microsecond precision.
      const ts = (
        await db.query<{ t: string }>(
          `SELECT to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t FROM ${t} WHERE id = $1`,
          [last.id],
        )
      )[0]?.t;
      out.nextBefore = `${ts ?? new Date(last.ts).toISOString()}|${last.id}`;
    }
    return out;
  } catch (err) {
    return { ...empty, error: `audit database: ${(err as Error).message}` };
  }
}
