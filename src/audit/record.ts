/**
 * The audit record every sink writes: one per hook execution (`kind: 'hook'`) and one per
 * decision (`kind: 'decision'`, the reduced answer of one event firing). Both carry the project,
 * session, client and event, so a team's audit from many machines reads as one timeline.
 */
import { randomUUID } from '../util/uuid.js';
import type { Decision, HookRecord } from '../reduce/reduce.js';
import { isoTime } from '../util/iso-time.js';

export interface AuditRecord {
  /** Unique per record: sinks that can (PostgreSQL) write each id once, whatever the retries. */
  id: string;
  kind: 'hook' | 'decision';
  ts: string;
  project: string;
  session_id: string;
  /** Who asked: `local` for an agent's own process, the client identity on the policy server. */
  client: string;
  event: string;
  /** Shared by a decision and the hook executions of the same firing. */
  firing_id: string;
  tool_name?: string;
  /** Hook provenance (hook records). */
  hook?: { id: string; type: string; source: HookRecord['source']; matcher?: string };
  hook_execution_id?: string;
  /** Hook records: the hook's outcome; decision records: `blocked`, `allowed` or `error`. */
  outcome: string;
  durationMs: number;
  exitCode?: number | null;
  decision?: string;
  reason?: string;
  error?: string;
  policy?: string;
}

export interface FiringContext {
  firingId: string;
  project: string;
  sessionId: string;
  client: string;
  event: string;
  toolName?: string;
}

export function newFiringContext(fields: Omit<FiringContext, 'firingId'> & { firingId?: string }): FiringContext {
  return { ...fields, firingId: fields.firingId ?? randomUUID() };
}

export function hookAuditRecord(f: FiringContext, record: HookRecord, hookExecutionId?: string): AuditRecord {
  const out: AuditRecord = {
    // Derived, not random: a firing evaluated again under the same id (a client's retry on the
    // policy server) writes the same ids, which PostgreSQL keeps once.
    id: `${f.firingId}/${record.id}`,
    kind: 'hook',
    ts: isoTime(),
    project: f.project,
    session_id: f.sessionId,
    client: f.client,
    event: f.event,
    firing_id: f.firingId,
    hook: { id: record.id, type: record.type, source: record.source, ...(record.matcher !== undefined ? { matcher: record.matcher } : {}) },
    outcome: record.outcome,
    durationMs: record.durationMs,
    exitCode: record.exitCode,
  };
  if (f.toolName !== undefined) out.tool_name = f.toolName;
  if (hookExecutionId) out.hook_execution_id = hookExecutionId;
  if (record.decision) out.decision = record.decision;
  if (record.reason) out.reason = record.reason;
  if (record.error) out.error = record.error;
  if (record.policy) out.policy = record.policy;
  return out;
}

/** The outcome of a whole firing, as recorded and as counted in metrics. */
export function decisionOutcome(decision: Decision | undefined): 'blocked' | 'allowed' | 'error' {
  if (!decision) return 'error';
  return decision.blocked || decision.decision === 'deny' || decision.decision === 'block' ? 'blocked' : 'allowed';
}

/** The decision's kind for records and metrics: the reduced verdict, else `none` (no hook decided). */
export function decisionKind(decision: Decision | undefined): string {
  if (!decision) return 'error';
  return decision.decision ?? (decision.blocked ? 'block' : 'none');
}

export function decisionAuditRecord(f: FiringContext, decision: Decision | undefined, durationMs: number, error?: string): AuditRecord {
  const out: AuditRecord = {
    id: f.firingId,
    kind: 'decision',
    ts: isoTime(),
    project: f.project,
    session_id: f.sessionId,
    client: f.client,
    event: f.event,
    firing_id: f.firingId,
    outcome: decisionOutcome(decision),
    durationMs: Math.round(durationMs * 1000) / 1000,
    decision: decisionKind(decision),
  };
  if (f.toolName !== undefined) out.tool_name = f.toolName;
  if (decision?.reason) out.reason = decision.reason;
  if (error) out.error = error;
  return out;
}
