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
  const { scope, params } = filterScope(q);
  const limit = Math.min(2000, Math.max(1, Math.trunc(q.limit ?? 200)));
  try {
    const cursor = q.before?.split('|');
    if (cursor && (cursor.length !== 2 || !Number.isFinite(Date.parse(cursor[0]!))))
      return { ...empty, error: 'before must be a cursor from nextBefore' };
    const pageWhere = cursor ? `${scope} AND (ts, id) < ($${params.length + 1}::timestamptz, $${params.length + 2})` : scope;
    const pageParams = cursor ? [...params, cursor[0], cursor[1]] : params;
    const t = db.table;
    const [rows, total, facets] = await Promise.all([
      db.query<PageRow>(`SELECT record, ts, id FROM ${t} WHERE ${pageWhere} ORDER BY ts DESC, id DESC LIMIT ${limit + 1}`, pageParams),
      db.query<{ n: string }>(`SELECT count(*) AS n FROM ${t} WHERE ${scope}`, params),
      // Facets from the most recent records only: cheap on a large table, enough for the menus.
      db.query<FacetRow>(`SELECT session_id, event, outcome, project, client FROM ${t} ORDER BY ts DESC LIMIT 5000`),
    ]);
    const page = rows.slice(0, limit);
    const entries = page.map((r) => toView(r.record)).filter((e): e is AuditEntryView => e !== undefined);
    const out: TeamAuditResult = {
      source: 'postgres',
      entries,
      total: Number(total[0]?.n ?? 0),
      firings: firingsOf(entries),
      malformed: page.length - entries.length,
      skippedBytes: 0,
      facets: facetsOf(facets),
    };
    if (rows.length > limit) out.nextBefore = await nextCursor(db, page[page.length - 1]!);
    return out;
  } catch (err) {
    return { ...empty, error: `audit database: ${(err as Error).message}` };
  }
}

type PageRow = { record: unknown; ts: Date; id: string };
type FacetRow = { session_id: string; event: string; outcome: string; project: string; client: string };

/** The WHERE clause of the filters, with numbered parameters (values never enter the SQL text). */
function filterScope(q: TeamAuditQuery): { scope: string; params: unknown[] } {
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
  return { scope: where.join(' AND '), params };
}

/** Firings grouped by their firing id (oldest first within a group), newest 100 first. */
function firingsOf(entries: AuditEntryView[]): TeamAuditResult['firings'] {
  const byFiring = new Map<string, AuditEntryView[]>();
  for (const e of [...entries].reverse()) {
    const k = e.firing_id ?? `${e.session_id}\0${e.ts}`;
    byFiring.set(k, [...(byFiring.get(k) ?? []), e]);
  }
  return [...byFiring.values()]
    .flatMap((members) => groupFirings(members).map((g) => g.firing))
    .sort((a, b) => Date.parse(b.start) - Date.parse(a.start))
    .slice(0, 100);
}

function facetsOf(facets: FacetRow[]): TeamAuditResult['facets'] {
  const uniq = (xs: string[]) => [...new Set(xs)];
  return {
    sessions: uniq(facets.map((f) => f.session_id)),
    events: uniq(facets.map((f) => f.event)).sort(),
    outcomes: uniq(facets.map((f) => f.outcome)).sort(),
    projects: uniq(facets.map((f) => f.project)).sort(),
    clients: uniq(facets.map((f) => f.client)).sort(),
  };
}

/** The `timestamp|id` cursor after the page's last row. */
async function nextCursor(db: AuditDb, last: PageRow): Promise<string> {
  // The row's own ts, at the database's microsecond precision.
  const ts = (
    await db.query<{ t: string }>(
      `SELECT to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t FROM ${db.table} WHERE id = $1`,
      [last.id],
    )
  )[0]?.t;
  return `${ts ?? new Date(last.ts).toISOString()}|${last.id}`;
}
