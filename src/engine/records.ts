/** What a firing writes down about each hook: its record, its captured streams, its audit entry. */
import type { ExecutionResult, FailureBehavior } from '../types.js';
import type { ParsedHook } from '../parse/output.js';
import type { HookRecord } from '../reduce/reduce.js';
import type { AuditEntry } from './audit.js';
import type { PlannedHook } from './plan.js';
import { isoTime } from '../util/iso-time.js';

export function makeRecord(
  planned: PlannedHook,
  result: ExecutionResult,
  parsed: ParsedHook,
  verdict: string | undefined,
  reason: string | undefined,
  policy: FailureBehavior | undefined,
): HookRecord {
  const { hook } = planned;
  const record: HookRecord = {
    id: hook.id,
    event: hook.event,
    type: hook.handler.type,
    source: { kind: hook.source.kind, file: hook.source.file, path: hook.source.path, pluginName: hook.source.pluginName },
    matcher: hook.matcher,
    outcome: parsed.outcome,
    durationMs: Math.round(result.durationMs * 1000) / 1000,
    exitCode: result.exitCode,
    signal: result.signal ?? null,
    stdoutTruncated: result.stdoutTruncated,
    stderrTruncated: result.stderrTruncated,
    stdinTruncated: result.stdinTruncated,
  };
  if (verdict) record.decision = verdict as HookRecord['decision'];
  if (reason) record.reason = reason;
  if (policy) record.policy = policy;
  const error = parsed.message ?? result.error;
  if (error) record.error = error;
  return record;
}

/** A hook's streams, each cut to `cap` bytes with a marker saying how much was left out. */
export function captureIo(payload: Record<string, unknown>, result: ExecutionResult, cap: number): NonNullable<HookRecord['io']> {
  const cut = (text: string): string => {
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes <= cap) return text;
    return `${Buffer.from(text, 'utf8')
      .subarray(0, cap)
      .toString('utf8')
      .replace(/\uFFFD$/, '')}…[${bytes - cap} more bytes]`;
  };
  const stdout = result.value !== undefined ? encodeForCapture(result.value) : result.stdout;
  return { stdin: cut(encodeForCapture(payload)), stdout: cut(stdout), stderr: cut(result.stderr) };
}

/** A captured stream is a diagnostic: a value too deep to encode is named, never a crash. */
function encodeForCapture(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch (err) {
    return `[not representable as JSON: ${(err as Error).message}]`;
  }
}

export function auditEntry(
  record: HookRecord,
  payload: Record<string, unknown>,
  sessionId: string,
  projectDir: string,
  withIo = false,
): AuditEntry {
  const entry: AuditEntry = {
    ts: isoTime(),
    session_id: sessionId,
    project: projectDir,
    ...record,
  };
  if (!withIo) delete entry.io;
  if (typeof payload.hook_execution_id === 'string') entry.hook_execution_id = payload.hook_execution_id;
  if (typeof payload.tool_name === 'string') entry.tool_name = payload.tool_name;
  return entry;
}
