/**
 * Reading the audit log (src/engine/audit.ts: one JSON line per hook execution) for the panel:
 * filter by session, event and outcome; group executions into firings for the timeline; list the
 * sessions the log has seen.
 *
 * Bounded: only the last `maxBytes` of the file are read (default 32 MiB; older lines are
 * ignored and the answer says so), lines that are not audit entries are counted and skipped,
 * long strings are shortened.
 *
 * Firings are reconstructed: an entry records when the hook finished (`ts`) and how long it ran
 * (`durationMs`). Entries of one session, event and tool whose runs follow each other without a
 * gap (serial events) or end together (parallel events, where the engine records every hook
 * when the last one is done) form one firing; in a parallel firing every hook is drawn from the
 * firing's start.
 */
import { createReadStream, promises as fs } from 'node:fs';
import { createInterface } from 'node:readline';
import { catalog, isEventName } from '../events/catalog.js';

export interface AuditEntryView {
  ts: string;
  session_id: string;
  event: string;
  tool_name?: string;
  hook: string;
  type: string;
  source: { kind: string; file?: string; path: string; pluginName?: string };
  matcher?: string;
  outcome: string;
  decision?: string;
  reason?: string;
  error?: string;
  policy?: string;
  durationMs: number;
  exitCode: number | null;
  signal?: string | null;
  /** outcome blocking, or decision deny/block. */
  blocked: boolean;
  /** Records of the settings sinks (src/audit/record.ts) also carry these. */
  project?: string;
  client?: string;
  firing_id?: string;
}

interface TimelineBar {
  hook: string;
  source: AuditEntryView['source'];
  type: string;
  outcome: string;
  decision?: string;
  blocked: boolean;
  /** From the firing's start. */
  offsetMs: number;
  durationMs: number;
}

export interface Firing {
  session_id: string;
  event: string;
  tool_name?: string;
  order: 'serial' | 'parallel' | 'background';
  start: string;
  durationMs: number;
  blocked: boolean;
  bars: TimelineBar[];
}

export interface AuditQuery {
  session?: string;
  event?: string;
  /** An outcome (`success`, `blocking`, `non_blocking_error`, `timeout`, `error`, `async:…`), or `blocked`. */
  outcome?: string;
  /** Newest entries returned (default 200, at most 2000). */
  limit?: number;
}

export interface AuditResult {
  file?: string;
  /** Entries matching every filter, newest first. */
  entries: AuditEntryView[];
  /** Entries matching, before `limit`. */
  total: number;
  /** Firings (session and event filters) containing an entry that matches the outcome filter, newest first (at most 100). */
  firings: Firing[];
  malformed: number;
  /** Bytes at the start of the file that were not read. */
  skippedBytes: number;
  /** Distinct values in the log, for filter menus (sessions most recent first). */
  facets: { sessions: string[]; events: string[]; outcomes: string[] };
  error?: string;
}

export interface AuditSession {
  id: string;
  firstSeen: string;
  lastSeen: string;
  runs: number;
  blocked: number;
  lastEvent: string;
}

const DEFAULT_AUDIT_MAX_BYTES = 32 * 1024 * 1024;
const MAX_TEXT = 2000;
const GAP_MS = 250;

const cap = (s: unknown): string | undefined =>
  typeof s === 'string' ? (s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT)}…` : s) : undefined;

export function toView(v: unknown): AuditEntryView | undefined {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  // Settings sinks (src/audit/record.ts) nest the hook's provenance under `hook`.
  const h = o.hook && typeof o.hook === 'object' ? (o.hook as Record<string, unknown>) : o;
  if (typeof o.ts !== 'string' || !Number.isFinite(Date.parse(o.ts))) return undefined;
  if (typeof o.session_id !== 'string' || typeof o.event !== 'string' || typeof o.outcome !== 'string') return undefined;
  if (typeof o.durationMs !== 'number' || !Number.isFinite(o.durationMs)) return undefined;
  const src = (h.source && typeof h.source === 'object' ? h.source : {}) as Record<string, unknown>;
  const decision = cap(o.decision);
  const out: AuditEntryView = {
    ts: o.ts,
    session_id: o.session_id,
    event: o.event,
    hook: cap(h.id) ?? '?',
    type: cap(h.type) ?? '?',
    source: {
      kind: cap(src.kind) ?? '?',
      ...(typeof src.file === 'string' ? { file: cap(src.file)! } : {}),
      path: cap(src.path) ?? '',
      ...(typeof src.pluginName === 'string' ? { pluginName: cap(src.pluginName)! } : {}),
    },
    outcome: o.outcome,
    durationMs: Math.max(0, o.durationMs),
    exitCode: typeof o.exitCode === 'number' ? o.exitCode : null,
    blocked: o.outcome === 'blocking' || decision === 'deny' || decision === 'block',
  };
  if (typeof o.tool_name === 'string') out.tool_name = cap(o.tool_name)!;
  if (typeof h.matcher === 'string') out.matcher = cap(h.matcher)!;
  if (typeof o.project === 'string') out.project = cap(o.project)!;
  if (typeof o.client === 'string') out.client = cap(o.client)!;
  if (typeof o.firing_id === 'string') out.firing_id = cap(o.firing_id)!;
  if (decision !== undefined) out.decision = decision;
  for (const k of ['reason', 'error', 'policy'] as const) {
    const t = cap(o[k]);
    if (t !== undefined) out[k] = t;
  }
  if (typeof o.signal === 'string') out.signal = o.signal;
  return out;
}

/** Every audit entry in the last `maxBytes` of the file, in file order. A missing file is empty. */
async function readAuditEntries(
  file: string,
  maxBytes = DEFAULT_AUDIT_MAX_BYTES,
): Promise<{ entries: AuditEntryView[]; malformed: number; skippedBytes: number; error?: string }> {
  let size: number;
  try {
    const st = await fs.stat(file);
    if (!st.isFile()) return { entries: [], malformed: 0, skippedBytes: 0, error: `audit log ${file} is not a regular file` };
    size = st.size;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { entries: [], malformed: 0, skippedBytes: 0 };
    return { entries: [], malformed: 0, skippedBytes: 0, error: `cannot read audit log ${file}: ${code ?? (e as Error).message}` };
  }
  const start = Math.max(0, size - maxBytes);
  const entries: AuditEntryView[] = [];
  let malformed = 0;
  let first = start > 0; // the first line read from the middle of the file is partial
  try {
    const rl = createInterface({ input: createReadStream(file, { start, encoding: 'utf8' }), crlfDelay: Infinity });
    for await (const line of rl) {
      if (first) {
        first = false;
        continue;
      }
      if (line.trim() === '') continue;
      let v: unknown;
      try {
        v = JSON.parse(line);
      } catch {
        malformed++;
        continue;
      }
      // One record per decision sits beside the hook records; the panel shows hook executions.
      if (v !== null && typeof v === 'object' && (v as { kind?: unknown }).kind === 'decision') continue;
      const e = toView(v);
      if (e) entries.push(e);
      else malformed++;
    }
  } catch (e) {
    return { entries, malformed, skippedBytes: start, error: `cannot read audit log ${file}: ${(e as Error).message}` };
  }
  return { entries, malformed, skippedBytes: start };
}

function orderOf(e: AuditEntryView): Firing['order'] {
  if (e.outcome.startsWith('async')) return 'background';
  return isEventName(e.event) ? catalog[e.event].order : 'parallel';
}

/** Group entries (file order) into firings; see the module comment. */
export function groupFirings(entries: readonly AuditEntryView[]): Array<{ firing: Firing; members: AuditEntryView[] }> {
  type Open = { key: string; order: Firing['order']; members: AuditEntryView[]; end: number };
  const open = new Map<string, Open>();
  const done: Open[] = [];
  for (const e of entries) {
    const end = Date.parse(e.ts);
    const start = end - e.durationMs;
    const order = orderOf(e);
    const key = `${e.session_id}\0${e.event}\0${e.tool_name ?? ''}\0${order}`;
    const g = open.get(key);
    const joins =
      g !== undefined &&
      order !== 'background' &&
      (order === 'parallel' ? Math.abs(end - g.end) <= GAP_MS : start >= g.end - GAP_MS && start - g.end <= GAP_MS);
    if (joins) {
      g!.members.push(e);
      g!.end = Math.max(g!.end, end);
    } else {
      if (g) done.push(g);
      const fresh = { key, order, members: [e], end };
      if (order === 'background') done.push(fresh);
      else open.set(key, fresh);
    }
  }
  done.push(...open.values());
  return done.map((g) => {
    const ends = g.members.map((m) => Date.parse(m.ts));
    const starts = g.members.map((m, i) => ends[i]! - m.durationMs);
    // Parallel hooks are recorded together when the last one ends: draw them all from the firing's start.
    const firingStart = g.order === 'parallel' ? Math.max(...ends) - Math.max(...g.members.map((m) => m.durationMs)) : Math.min(...starts);
    const firingEnd = Math.max(...ends);
    const bars = g.members.map((m, i) => ({
      hook: m.hook,
      source: m.source,
      type: m.type,
      outcome: m.outcome,
      ...(m.decision !== undefined ? { decision: m.decision } : {}),
      blocked: m.blocked,
      offsetMs: g.order === 'parallel' ? 0 : Math.max(0, starts[i]! - firingStart),
      durationMs: m.durationMs,
    }));
    const head = g.members[0]!;
    return {
      firing: {
        session_id: head.session_id,
        event: head.event,
        ...(head.tool_name !== undefined ? { tool_name: head.tool_name } : {}),
        order: g.order,
        start: new Date(firingStart).toISOString(),
        durationMs: Math.max(0, firingEnd - firingStart),
        blocked: g.members.some((m) => m.blocked),
        bars,
      },
      members: g.members,
    };
  });
}

function matchesOutcome(e: AuditEntryView, outcome: string | undefined): boolean {
  if (!outcome) return true;
  if (outcome === 'blocked') return e.blocked;
  return e.outcome === outcome;
}

/** Query the audit log (see AuditQuery). Never throws. */
export async function queryAudit(file: string | undefined, q: AuditQuery = {}, maxBytes = DEFAULT_AUDIT_MAX_BYTES): Promise<AuditResult> {
  if (!file)
    return { entries: [], total: 0, firings: [], malformed: 0, skippedBytes: 0, facets: { sessions: [], events: [], outcomes: [] } };
  const read = await readAuditEntries(file, maxBytes);
  const scoped = read.entries.filter((e) => (!q.session || e.session_id === q.session) && (!q.event || e.event === q.event));
  const matching = scoped.filter((e) => matchesOutcome(e, q.outcome));
  const limit = Math.min(2000, Math.max(1, Math.trunc(q.limit ?? 200)));
  const firings = groupFirings(scoped)
    .filter((g) => g.members.some((m) => matchesOutcome(m, q.outcome)))
    .map((g) => g.firing)
    .sort((a, b) => Date.parse(b.start) - Date.parse(a.start))
    .slice(0, 100);
  return {
    file,
    entries: matching.slice(-limit).reverse(),
    total: matching.length,
    firings,
    malformed: read.malformed,
    skippedBytes: read.skippedBytes,
    facets: {
      sessions: [...new Set(read.entries.map((e) => e.session_id).reverse())],
      events: [...new Set(read.entries.map((e) => e.event))].sort(),
      outcomes: [...new Set(read.entries.map((e) => e.outcome))].sort(),
    },
    ...(read.error ? { error: read.error } : {}),
  };
}

/** Sessions seen in the audit log, most recent first. */
export async function auditSessions(file: string | undefined, maxBytes = DEFAULT_AUDIT_MAX_BYTES): Promise<AuditSession[]> {
  if (!file) return [];
  const { entries } = await readAuditEntries(file, maxBytes);
  const by = new Map<string, AuditSession>();
  for (const e of entries) {
    const s = by.get(e.session_id);
    if (!s)
      by.set(e.session_id, { id: e.session_id, firstSeen: e.ts, lastSeen: e.ts, runs: 1, blocked: e.blocked ? 1 : 0, lastEvent: e.event });
    else {
      s.runs++;
      if (e.blocked) s.blocked++;
      if (Date.parse(e.ts) >= Date.parse(s.lastSeen)) {
        s.lastSeen = e.ts;
        s.lastEvent = e.event;
      }
      if (Date.parse(e.ts) < Date.parse(s.firstSeen)) s.firstSeen = e.ts;
    }
  }
  return [...by.values()].sort((a, b) => Date.parse(b.lastSeen) - Date.parse(a.lastSeen));
}
