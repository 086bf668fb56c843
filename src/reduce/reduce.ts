/**
 * Reduce stage: per-hook parsed results (in config order) → one Decision.
 * Pure: no processes, no clocks — unit-testable from plain data.
 */
import { eventFacts, type EventName } from '../events/facts.js';
import { askMeetsBypass, asksPermission, failsClosedWhenUnjudged, mergeRuleOf } from '../events/facts.js';
import type { EventFacts } from '../events/spec.js';
import type { ParsedHook, Verdict } from '../parse/output.js';
import type { FailureBehavior } from '../types.js';

type DecisionValue = Verdict;

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
  /** The hook judged one file of a patch, seen as this tool (src/engine/plan-views.ts). */
  view?: { tool: string; filePath: string };
  /** Why the host's validator refused the hook's rewrite of the tool input. */
  invalidRewrite?: string;
  /** What the engine noted of this execution (ExecutionResult.warnings), for the decision's warnings. */
  notes?: readonly string[];
}

/** What the stages before reduce hand it besides the hooks' answers. */
export interface ReduceContext {
  permissionMode?: string;
  /**
   * Whether the permission mode was chosen by the host (a bypass turns a PreToolUse ask into
   * allow) or only reported in the payload by an agent (a bypass never does: the agent will not
   * ask anyone, so the ask is denied with the reason).
   */
  modeChosen?: boolean;
  /** A Stop/SubagentStop firing: the blocks in a row before this one in the session, and the cap. */
  continuation?: { before: number; cap: number };
  /** What the hooks exported through CLAUDE_ENV_FILE (SessionStart and the other envFile events). */
  env?: Record<string, string>;
  /** The hooks judge the patch's files one by one, but no file could be read from it: why it is denied. */
  undeterminedPatch?: string;
  /** Notes of the stages before (an `if` not decided, an env file not read). */
  warnings?: readonly string[];
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

/** The verdict a parsed hook contributes, after failure policy and mode. */
export function effectiveVerdict(
  event: EventName,
  entry: ReduceEntry,
  permissionMode?: string,
  modeChosen = true,
): { verdict?: Verdict; reason?: string; policy?: FailureBehavior; warning?: string } {
  const spec = eventFacts(event);
  const { parsed } = entry;
  const refused = refusedRewrite(spec, entry);
  if (refused) return refused;
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
  if (verdict === 'ask' && modeChosen && askMeetsBypass(event, permissionMode)) verdict = 'allow';
  return { verdict, reason, policy, warning };
}

/**
 * A rewrite that cannot be applied is a validation error that stops the call, never a silent
 * fallback: one the host's validator refused, and one of a patch's per-file view (it cannot be
 * put back onto the patch).
 */
function refusedRewrite(spec: EventFacts, entry: ReduceEntry): { verdict: Verdict; reason: string } | undefined {
  const { view } = entry;
  const reason =
    entry.invalidRewrite ??
    (view && entry.parsed.updatedInput
      ? `hook ${entry.hookId} rewrote the ${view.tool} view of ${view.filePath} (one file of this patch); a per-file rewrite cannot be applied back onto the patch, so the patch is denied`
      : undefined);
  return reason === undefined ? undefined : { verdict: asksPermission(spec) ? 'deny' : 'block', reason };
}

/** The answer to an ask nobody will see: the agent only reported a bypass mode (see ReduceContext.modeChosen). */
function askUnderReportedBypass(mode: string | undefined, reason: string | undefined): string {
  return `approval required, but the agent runs in ${mode} mode and will not ask the user: ${reason?.trim() || 'a hook asked for confirmation'}`;
}

/** The pass-through Decision of an event no hook decided on: nothing blocked, nothing added. */
export function emptyDecision(event: EventName): Decision {
  return startDecision(event, []);
}

/**
 * The Decision of an event its hooks could not judge at all — the engine itself failed, or the
 * policy server could not be reached — under `policy`: `deny` stops the guarded action where
 * running it unjudged would fail open (`failsClosedWhenUnjudged`: deny on the permission events,
 * block elsewhere), `ask` asks where the event can ask, `ignore` decides nothing. A warning
 * always says why.
 */
export function unjudgedDecision(
  event: EventName,
  reason: string,
  policy: FailureBehavior = 'deny',
  notes: readonly string[] = [],
): Decision {
  const decision = startDecision(event, []);
  decision.warnings.push(reason, ...notes);
  const spec = eventFacts(event);
  if (policy === 'ignore' || !failsClosedWhenUnjudged(event)) return decision;
  const permission = asksPermission(spec);
  const verdict: Verdict = policy === 'ask' && permission ? 'ask' : permission ? 'deny' : 'block';
  decision.decision = verdict;
  decision.reason = reason;
  decision.blocked = isBlocking(spec, verdict);
  return decision;
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

export function reduce(event: EventName, entries: readonly ReduceEntry[], records: HookRecord[], ctx: ReduceContext = {}): Decision {
  const spec = eventFacts(event);
  const decision = startDecision(event, records);
  let verdict: Verdict | undefined;
  let reason: string | undefined;
  if (ctx.undeterminedPatch !== undefined) {
    // The engine could not show the guards what the patch writes: its own failure, denied first.
    verdict = policyVerdict(spec, 'deny');
    reason = ctx.undeterminedPatch;
    decision.warnings.push(ctx.undeterminedPatch);
  }
  for (const entry of entries) {
    const { parsed } = entry;
    const eff = effectiveVerdict(event, entry, ctx.permissionMode, ctx.modeChosen);
    if (eff.warning) decision.warnings.push(eff.warning);
    if (parsed.lint) for (const w of parsed.lint) decision.warnings.push(`hook ${entry.hookId}: ignored output field ${w}`);
    if (entry.notes) for (const w of entry.notes) decision.warnings.push(`hook ${entry.hookId}: ${w}`);
    if (eff.verdict) {
      const next = strongerVerdict(verdict, eff.verdict);
      // First hook to reach the winning rank supplies the reason (config order).
      if (next !== verdict && (verdict === undefined || RANK[eff.verdict] > RANK[verdict])) {
        verdict = next;
        reason = eff.reason;
      }
    }
    collectOutputs(decision, entry);
  }
  if (verdict === 'ask' && ctx.modeChosen === false && askMeetsBypass(event, ctx.permissionMode)) {
    verdict = 'deny';
    reason = askUnderReportedBypass(ctx.permissionMode, reason);
  }
  if (verdict) {
    decision.decision = verdict;
    if (reason !== undefined) decision.reason = reason;
  }
  decision.blocked = isBlocking(spec, verdict);
  // A rewrite only applies to a call that proceeds (or goes to the user).
  if (verdict === 'deny' || verdict === 'defer' || verdict === 'block') delete decision.updatedInput;
  if (spec.decision === 'elicitation' && verdict === 'block') decision.eventOutput.action = 'decline';
  if (spec.continuationCap && ctx.continuation) capContinuation(decision, ctx.continuation);
  if (ctx.env && Object.keys(ctx.env).length > 0) defineOwn(decision.eventOutput, 'env', ctx.env);
  if (ctx.warnings) decision.warnings.push(...ctx.warnings);
  return decision;
}

/** What one hook adds besides its verdict: context, messages, continue, rewrites, specific outputs. */
function collectOutputs(decision: Decision, entry: ReduceEntry): void {
  const { parsed } = entry;
  if (parsed.additionalContext) decision.additionalContext.push(parsed.additionalContext);
  if (parsed.systemMessage) decision.systemMessages.push(parsed.systemMessage);
  if (parsed.userMessage) decision.systemMessages.push(parsed.userMessage);
  if (parsed.continue === false && decision.continue) {
    decision.continue = false;
    decision.stopReason = parsed.stopReason;
  }
  // Serial events feed the accumulated input forward, so the last rewrite is the accumulated one;
  // a per-file view's rewrite or a refused one never becomes the call's input.
  if (parsed.updatedInput && !entry.view && entry.invalidRewrite === undefined) decision.updatedInput = parsed.updatedInput;
  if (parsed.updatedOutput !== undefined) decision.updatedOutput = parsed.updatedOutput;
  mergeSpecific(decision.eventOutput, parsed.specific);
}

/**
 * Stop/SubagentStop: past `cap` blocks in a row in one session the agent is let stop, so a hook
 * that always blocks cannot keep it going forever (the engine counts the blocks per session).
 */
function capContinuation(decision: Decision, { before, cap }: { before: number; cap: number }): void {
  if (!decision.blocked || before + 1 <= cap) return;
  decision.blocked = false;
  decision.warnings.push(
    `${decision.event} hooks blocked ${before + 1} consecutive times (cap ${cap}); letting the agent stop. Last reason: ${decision.reason ?? '(none)'}`,
  );
  delete decision.decision;
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
