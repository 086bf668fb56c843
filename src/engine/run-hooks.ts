/**
 * Execute stage of a firing: the planned hooks run serially (each sees the input as rewritten so
 * far; the chain stops at the first deny) or in parallel under the engine-wide bound, per the
 * catalog; a patch's per-file views run after the patch's own hooks, on the patch as rewritten.
 * Each answer is parsed and judged into a ReduceEntry (failure policy, the host's check of a
 * rewrite, which view it judged) and recorded; what the entries mean together is reduce's.
 */
import { randomUUID } from '../util/uuid.js';
import { isoTime } from '../util/iso-time.js';
import type { BackendContext } from '../backends/types.js';
import type { EventName } from '../events/facts.js';
import type { EventFacts } from '../events/spec.js';
import type { ParsedHook } from '../parse/output.js';
import { effectiveVerdict, policyVerdict, type HookRecord, type ReduceEntry } from '../reduce/reduce.js';
import type { FiringObservation } from '../telemetry/observe.js';
import type { ExecutionResult, NormalizedHook } from '../types.js';
import { adoptAsync, runsInBackground, startAsync } from './background.js';
import { execute, parseResult } from './execute.js';
import type { PlanContext, PlanIndex, PlannedHook } from './plan.js';
import { isPatchFiring, planPatchViews, type ViewPlan, type ViewRun } from './plan-views.js';
import { auditEntry, captureIo, makeRecord } from './records.js';
import type { EngineState } from './state.js';
import { timeoutFor } from './timeouts.js';

/** What one firing carries from planning to its Decision. */
export interface Firing {
  readonly event: EventName;
  readonly spec: EventFacts;
  readonly mode: string | undefined;
  readonly modeChosen: boolean;
  /** The completed, validated input. */
  readonly input: Record<string, unknown>;
  readonly index: PlanIndex;
  readonly planCtx: PlanContext;
  readonly bctx: BackendContext;
  readonly sessionId: string;
  /** The session whose counters this firing reads and writes (namespaced by the client). */
  readonly counterSession: string;
  readonly signal: AbortSignal | undefined;
  readonly obs: FiringObservation | undefined;
  readonly entries: ReduceEntry[];
  readonly records: HookRecord[];
  /** The patch's files could not be read for the hooks that judge them one by one (plan-views.ts). */
  undetermined?: string;
}

/** One hook to run, on this input, judging this view of a patch (if any). */
interface Job {
  readonly planned: PlannedHook;
  readonly input: Record<string, unknown>;
  readonly view?: ViewRun['view'];
}

const STOPPED = Symbol('stopped');

export async function runHooks(state: EngineState, f: Firing, matched: readonly PlannedHook[]): Promise<void> {
  // Each step awaits only when it has work: a firing with no `once` hook and no patch stays on
  // the in-process fast path (an await per step is a measurable share of a function hook's cost).
  const claimed = claimOnce(state, f, matched);
  const main = Array.isArray(claimed) ? (claimed as readonly PlannedHook[]) : await claimed;
  const patch = isPatchFiring(f.event, f.input);
  if (f.spec.order !== 'serial') {
    const views = patch ? await viewJobs(state, f, f.input) : [];
    await runParallel(state, f, [...main.map((planned) => ({ planned, input: f.input })), ...views]);
    return;
  }
  const current = await runChain(state, f, main, f.input);
  if (current === STOPPED || !patch) return;
  // The views judge the patch as the hooks before them rewrote it: what will be applied.
  for (const job of await viewJobs(state, f, current))
    if ((await runChain(state, f, [job.planned], job.input, job.view)) === STOPPED) return;
}

/** The per-file views of a patch as jobs, planned on `input`; `once` hooks claimed. */
async function viewJobs(state: EngineState, f: Firing, input: Record<string, unknown>): Promise<Job[]> {
  const plan: ViewPlan = planPatchViews(f.index, f.event, input, f.planCtx);
  if (plan.undetermined !== undefined) f.undetermined = plan.undetermined;
  const jobs: Job[] = [];
  for (const run of plan.runs)
    for (const planned of await claimOnce(state, f, run.hooks)) jobs.push({ planned, input: run.input, view: run.view });
  return jobs;
}

/** A skill's `once` hook runs once per session: claimed in the session's counters before it runs. */
export const isOnce = (h: NormalizedHook): boolean => h.source.kind === 'skill' && h.handler.once === true;

function claimOnce(
  state: EngineState,
  f: Firing,
  planned: readonly PlannedHook[],
): readonly PlannedHook[] | Promise<readonly PlannedHook[]> {
  if (!planned.some((p) => isOnce(p.hook))) return planned;
  return (async () => {
    const out: PlannedHook[] = [];
    for (const p of planned) {
      if (!isOnce(p.hook) || (await state.counters.update(f.counterSession, `once\0${p.hook.id}`, () => 1)) === 0) out.push(p);
    }
    return out;
  })();
}

/**
 * Serial: config order, each hook sees the input as rewritten so far; stop at the first deny.
 * On a patch's view (`view`), the hooks judge that file's input, which a rewrite does not change.
 */
async function runChain(
  state: EngineState,
  f: Firing,
  hooks: readonly PlannedHook[],
  input: Record<string, unknown>,
  view?: Job['view'],
): Promise<Record<string, unknown> | typeof STOPPED> {
  // An ask is remembered (reduce ranks it) while the chain goes on, so a later deny still wins.
  let current = input;
  for (const planned of hooks) {
    if (f.signal?.aborted) return STOPPED;
    const payload = hookPayload(current);
    const hctx = hookContext(f, planned);
    if (runsInBackground(planned)) {
      startAsync(state, planned, payload, hctx, f.event, f.obs);
      continue;
    }
    const result = await execute(state, planned, payload, hctx);
    if (result.background) {
      // Declared async on its first line: the chain goes on without it, as Claude Code's does.
      adoptAsync(state, planned, payload, result.background, f.event, f.obs);
      continue;
    }
    const parsed = parseResult(state, f.event, result, payload);
    const verdict = judge(state, f, planned, view, payload, result, parsed);
    if (verdict === 'deny' || verdict === 'block') return STOPPED;
    if (parsed.updatedInput && !view) current = { ...current, tool_input: parsed.updatedInput };
  }
  return current;
}

/** Parallel: bounded by the engine-wide semaphore, judged in config order. */
async function runParallel(state: EngineState, f: Firing, jobs: readonly Job[]): Promise<void> {
  const results = await Promise.all(
    jobs.map(async (job) => {
      const payload = hookPayload(job.input);
      const hctx = hookContext(f, job.planned);
      if (runsInBackground(job.planned)) {
        startAsync(state, job.planned, payload, hctx, f.event, f.obs);
        return undefined;
      }
      const result = await execute(state, job.planned, payload, hctx);
      if (result.background) {
        adoptAsync(state, job.planned, payload, result.background, f.event, f.obs);
        return undefined;
      }
      return { job, payload, result, parsed: parseResult(state, f.event, result, payload) };
    }),
  );
  for (const r of results) if (r) judge(state, f, r.job.planned, r.job.view, r.payload, r.result, r.parsed);
}

function hookContext(f: Firing, planned: PlannedHook): BackendContext {
  return { ...f.bctx, timeoutMs: timeoutFor(planned.hook.handler, f.spec) * 1000 };
}

/** Each execution's own id and time on top of the firing's input. */
function hookPayload(input: Record<string, unknown>): Record<string, unknown> {
  return { ...input, hook_execution_id: randomUUID(), timestamp: isoTime() };
}

/** One hook's answer as a ReduceEntry, recorded and audited; returns the verdict it contributes. */
function judge(
  state: EngineState,
  f: Firing,
  planned: PlannedHook,
  view: Job['view'],
  payload: Record<string, unknown>,
  result: ExecutionResult,
  parsed: ParsedHook,
) {
  const { options } = state;
  const { hook } = planned;
  const entry: ReduceEntry = {
    hookId: hook.id,
    parsed,
    // The engine could not run the hook as configured (`engineFault`: its matcher or `if` not
    // decided, a module it needs not loaded) on an event that can block: whether the guard would
    // allow is unknown, so fail closed whatever the failure policy says.
    failureBehavior:
      result.engineFault && policyVerdict(f.spec, 'deny') ? 'deny' : (hook.handler.failureBehavior ?? options.failureBehavior ?? 'ignore'),
    timeoutBehavior: hook.handler.timeoutBehavior ?? options.timeoutBehavior ?? 'ignore',
  };
  if (view) entry.view = view;
  if (result.warnings?.length) entry.notes = result.warnings;
  if (parsed.updatedInput && !view && options.validateToolInput && typeof payload.tool_name === 'string') {
    const v = options.validateToolInput(payload.tool_name, parsed.updatedInput);
    if (!v.ok) entry.invalidRewrite = `hook ${hook.id} rewrote the input of ${payload.tool_name} invalidly: ${v.error}`;
  }
  const eff = effectiveVerdict(f.event, entry, f.mode, f.modeChosen);
  const record = makeRecord(planned, result, parsed, eff.verdict, eff.reason ?? parsed.reason, eff.policy);
  if (options.captureIoBytes) record.io = captureIo(payload, result, options.captureIoBytes);
  f.entries.push(entry);
  f.records.push(record);
  state.audit?.(auditEntry(record, payload, f.sessionId, state.projectDir, options.auditIo));
  f.obs?.hook(record, payload);
  return eff.verdict;
}
