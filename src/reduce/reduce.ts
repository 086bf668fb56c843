/**
 * Reduce stage: per-hook parsed results (in config order) → one Decision.
 * Pure: no processes, no clocks — unit-testable from plain data.
 */
import { eventFacts, type EventName } from '../events/facts.js';
import { askMeetsBypass, mergeRuleOf } from '../events/facts.js';
import type { EventFacts } from '../events/spec.js';
import type { ParsedHook, Verdict } from '../parse/output.js';
import type { FailureBehavior } from '../types.js';

export type DecisionValue = Verdict;

/** What one hook execution did; one per executed (or skipped) hook. */
export interface HookRecord {
  id: string;
  event: EventName;
  type: string;
  source: { kind: string; file?: string; path: string; pluginName?: string };
  matcher?: string;
  /** success | blocking | non_blocking_error | timeout | error | async | skipped */
  outcome: string;
  decision?: DecisionValue;
  reason?: string;
  durationMs: number;
  exitCode: number | null;
  signal?: string | null;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  stdinTruncated: boolean;
  /** Failure policy that applied to an error or timeout. */
  policy?: FailureBehavior;
  error?: string;
  /** The hook's stdin, stdout and stderr, capped; only when the engine's captureIoBytes is set. */
  io?: { stdin: string; stdout: string; stderr: string };
}

export interface Decision {
  event: EventName;
  /** The guarded action does not proceed. */
  blocked: boolean;
  /** allow | deny | ask | defer for tool/permission events, block where a hook blocked; absent if no hook decided. */
  decision?: DecisionValue;
  reason?: string;
  updatedInput?: Record<string, unknown>;
  updatedOutput?: unknown;
  additionalContext: string[];
  systemMessages: string[];
  continue: boolean;
  stopReason?: string;
  /** Other honoured event-specific outputs, merged in config order (sessionTitle, displayContent, action, retry, …). */
  eventOutput: Record<string, unknown>;
  hooks: HookRecord[];
  warnings: string[];
}

export interface ReduceEntry {
  hookId: string;
  parsed: ParsedHook;
  /** Effective failure/timeout behavior for this hook. */
  failureBehavior: FailureBehavior;
  timeoutBehavior: FailureBehavior;
}

const RANK: Record<Verdict, number> = { deny: 4, block: 4, defer: 3, ask: 2, allow: 1 };

/** deny > defer > ask > allow (block ranks with deny). */
export function strongerVerdict(a: Verdict | undefined, b: Verdict | undefined): Verdict | undefined {
  if (!a) return b;
  if (!b) return a;
  return RANK[b] > RANK[a] ? b : a;
}

/**
 * Turn an error/timeout into the verdict its policy asks for.
 * ask on an event without an ask branch fails closed (block) where the event can block.
 */
export function policyVerdict(spec: EventFacts, behavior: FailureBehavior): Verdict | undefined {
  if (behavior === 'ignore') return undefined;
  switch (spec.decision) {
    case 'permission':
      return behavior;
    case 'permission-request':
      return behavior === 'deny' ? 'deny' : undefined; // ask = leave it to the user
    default:
      return spec.canBlock ? 'block' : undefined;
  }
}

/** Is yolo/bypass: an ask on a `bypassAsk` event (PreToolUse) becomes allow. */
export { isBypassMode } from '../events/facts.js';

/** The verdict a parsed hook contributes, after failure policy and mode. */
export function effectiveVerdict(
  event: EventName,
  entry: ReduceEntry,
  permissionMode?: string,
): { verdict?: Verdict; reason?: string; policy?: FailureBehavior; warning?: string } {
  const spec = eventFacts(event);
  const { parsed } = entry;
  let verdict = parsed.verdict;
  let reason = parsed.reason;
  let policy: FailureBehavior | undefined;
  let warning: string | undefined;
  if (parsed.outcome === 'non_blocking_error' || parsed.outcome === 'error' || parsed.outcome === 'timeout') {
    policy = parsed.outcome === 'timeout' ? entry.timeoutBehavior : entry.failureBehavior;
    verdict = policyVerdict(spec, policy);
    const what = parsed.outcome === 'timeout' ? 'timed out' : `failed: ${parsed.message ?? 'error'}`;
    if (verdict)
      reason = `hook ${entry.hookId} ${what} (${parsed.outcome === 'timeout' ? 'timeoutBehavior' : 'failureBehavior'}: ${policy})`;
    else warning = `hook ${entry.hookId} ${what}${policy !== 'ignore' ? ` (${policy} not applicable to ${event}; ignored)` : ''}`;
  }
  if (verdict === 'ask' && askMeetsBypass(event, permissionMode)) verdict = 'allow';
  return { verdict, reason, policy, warning };
}

/** The pass-through Decision of an event no hook decided on: nothing blocked, nothing added. */
export function emptyDecision(event: EventName): Decision {
  return startDecision(event, []);
}

/** The one place a Decision's shape is built (fields in this order: it is what JSON output shows). */
function startDecision(event: EventName, hooks: HookRecord[]): Decision {
  return {
    event,
    blocked: false,
    additionalContext: [],
    systemMessages: [],
    continue: true,
    eventOutput: {},
    hooks,
    warnings: [],
  };
}

export function reduce(
  event: EventName,
  entries: readonly ReduceEntry[],
  records: HookRecord[],
  ctx: { permissionMode?: string } = {},
): Decision {
  const spec = eventFacts(event);
  const decision = startDecision(event, records);
  let verdict: Verdict | undefined;
  let reason: string | undefined;

  for (const entry of entries) {
    const { parsed } = entry;
    const eff = effectiveVerdict(event, entry, ctx.permissionMode);
    if (eff.warning) decision.warnings.push(eff.warning);
    if (parsed.lint) for (const w of parsed.lint) decision.warnings.push(`hook ${entry.hookId}: ignored output field ${w}`);
    if (eff.verdict) {
      const next = strongerVerdict(verdict, eff.verdict);
      // First hook to reach the winning rank supplies the reason (config order).
      if (next !== verdict && (verdict === undefined || RANK[eff.verdict] > RANK[verdict])) {
        verdict = next;
        reason = eff.reason;
      }
    }
    if (parsed.additionalContext) decision.additionalContext.push(parsed.additionalContext);
    if (parsed.systemMessage) decision.systemMessages.push(parsed.systemMessage);
    if (parsed.userMessage) decision.systemMessages.push(parsed.userMessage);
    if (parsed.continue === false && decision.continue) {
      decision.continue = false;
      decision.stopReason = parsed.stopReason;
    }
    // Serial events feed the accumulated input forward, so the last rewrite is the accumulated one.
    if (parsed.updatedInput) decision.updatedInput = parsed.updatedInput;
    if (parsed.updatedOutput !== undefined) decision.updatedOutput = parsed.updatedOutput;
    mergeSpecific(decision.eventOutput, parsed.specific);
  }

  if (verdict) {
    decision.decision = verdict;
    if (reason !== undefined) decision.reason = reason;
  }
  decision.blocked = isBlocking(spec, verdict);
  // A rewrite only applies to a call that proceeds (or goes to the user).
  if (verdict === 'deny' || verdict === 'defer' || verdict === 'block') delete decision.updatedInput;
  if (spec.decision === 'elicitation' && verdict === 'block') decision.eventOutput.action = 'decline';
  return decision;
}

function isBlocking(spec: EventFacts, verdict: Verdict | undefined): boolean {
  switch (spec.decision) {
    case 'permission':
      return verdict === 'deny' || verdict === 'defer';
    case 'permission-request':
      return verdict === 'deny';
    default:
      return spec.canBlock && (verdict === 'block' || verdict === 'deny');
  }
}

/** Merge event-specific outputs in config order, each field by its rule (OUTPUT_FIELD_MERGE in events/facts.ts). */
function mergeSpecific(into: Record<string, unknown>, from: Record<string, unknown>): void {
  for (const key of Object.keys(from)) {
    const value = from[key];
    const prev = into[key];
    switch (mergeRuleOf(key)) {
      case 'concat':
        into[key] = [...(Array.isArray(prev) ? prev : []), ...(Array.isArray(value) ? value : [])];
        break;
      case 'any':
        into[key] = prev === true || value === true;
        break;
      case 'restrictive':
        // decline/cancel are more restrictive than accept and win whatever the order.
        if (prev === 'decline' || prev === 'cancel') break;
        into[key] = value;
        break;
      default:
        defineOwn(into, key, value);
    }
  }
}

/** Assign without invoking a `__proto__` setter on the target. */
export function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
