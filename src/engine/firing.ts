/**
 * One firing: plan the matching hooks, run them (serially or in parallel, per the catalog),
 * fail closed where a hook's answer cannot be trusted, then reduce to one Decision.
 */
import { randomUUID } from '../util/uuid.js';
import { buildHookEnv } from '../backends/env.js';
import type { BackendContext } from '../backends/types.js';
import { eventFacts, isEventName, type EventName } from '../events/facts.js';
import type { EventFacts } from '../events/spec.js';
import type { ParsedHook } from '../parse/output.js';
import { defineOwn, effectiveVerdict, policyVerdict, reduce, type Decision, type HookRecord, type ReduceEntry } from '../reduce/reduce.js';
import type { FiringObservation } from '../telemetry/observe.js';
import type { ExecutionResult } from '../types.js';
import { runsInBackground, startAsync } from './background.js';
import { createEnvFile, evaluateEnvFile } from './env-file.js';
import { applyStopCap, emptyDecision } from './event-rules.js';
import { permissionModeOf, skipsInPlanMode } from '../events/facts.js';
import { execute, parseResult } from './execute.js';
import { currentIndex, readyIndex } from './hooks.js';
import { completeInput, InvalidHookInputError, loadedInputIssues } from './input.js';
import { eventCheck } from '../events/compiled.js';
import { planHooks, type PlannedHook } from './plan.js';
import { auditEntry, captureIo, makeRecord } from './records.js';
import type { EngineState } from './state.js';
import { timeoutFor } from './timeouts.js';
import type { RunContext } from './types.js';
import { isoTime } from '../util/iso-time.js';

/** What one firing carries from planning to its Decision. */
interface Firing {
  readonly event: EventName;
  readonly spec: EventFacts;
  readonly mode: string | undefined;
  readonly input: Record<string, unknown>;
  readonly matched: readonly PlannedHook[];
  readonly bctx: BackendContext;
  readonly sessionId: string;
  readonly signal: AbortSignal | undefined;
  readonly obs: FiringObservation | undefined;
  readonly entries: ReduceEntry[];
  readonly records: HookRecord[];
}

export async function runFiring(
  state: EngineState,
  event: EventName,
  rawInput: Record<string, unknown>,
  ctx: RunContext = {},
  obs?: FiringObservation,
): Promise<Decision> {
  const { options } = state;
  if (!isEventName(event)) throw new InvalidHookInputError(String(event), 'unknown event');
  // Untyped callers: null or a non-object must be a clear input error, not a TypeError below.
  if (typeof rawInput !== 'object' || rawInput === null || Array.isArray(rawInput))
    throw new InvalidHookInputError(event, 'input must be a JSON object');
  if (options.disabled) return emptyDecision(event);
  const spec = eventFacts(event);
  const mode = permissionModeOf(ctx.permissionMode, rawInput);
  if (options.skipToolHooksInPlanMode && skipsInPlanMode(event, mode)) return emptyDecision(event);

  const cwd = ctx.cwd ?? (typeof rawInput.cwd === 'string' && rawInput.cwd ? rawInput.cwd : state.baseCwd);
  let index = currentIndex(state.hooks);
  let unloaded: string | undefined;
  // An `if` not parsed yet: its module (unbash, picomatch) loads now, once per process (plan.ts).
  if (index.unloadedRules) ({ index, failure: unloaded } = await readyIndex(state.hooks));
  const matched = planHooks(index, event, rawInput, {
    cwd,
    homeDir: state.homeDir,
    projectDir: state.projectDir,
    foldCase: state.foldCase,
    ...(ctx.onlyHooks ? { only: ctx.onlyHooks } : {}),
  });
  if (matched.length === 0) return emptyDecision(event);

  const input = completeInput(event, rawInput, { cwd, sessionId: ctx.sessionId ?? options.sessionId, mode });
  // Accepted by the compiled validator: nothing to await (the hot path of in-process dispatch).
  if (!eventCheck('input', event)?.(input)) await validateInput(event, input);

  const envFile = spec.envFile && matched.some((p) => p.hook.handler.type === 'command') ? createEnvFile() : undefined;
  const bctx = backendContext(state, ctx, cwd, envFile?.path);
  const f: Firing = {
    event,
    spec,
    mode,
    input,
    matched,
    bctx,
    sessionId: String(input.session_id),
    signal: ctx.signal,
    obs,
    entries: [],
    records: [],
  };
  try {
    if (spec.order === 'serial') await runSerial(state, f);
    else await runParallel(state, f);
    const decision = reduce(event, f.entries, f.records, { permissionMode: mode });
    if (envFile) {
      const base = buildHookEnv({
        sessionEnv: bctx.sessionEnv,
        passEnv: options.passEnv,
        projectDir: state.projectDir,
        envFile: envFile.path,
      });
      const { env, warning } = await evaluateEnvFile(envFile.path, base, cwd);
      if (warning) decision.warnings.push(warning);
      if (Object.keys(env).length > 0) defineOwn(decision.eventOutput, 'env', env);
    }
    applyStopCap(state.stopCap, event, decision, f.sessionId);
    if (unloaded !== undefined)
      for (const p of matched)
        if (p.rule && p.rule.kind === 'unloaded')
          decision.warnings.push(
            `hook ${p.hook.id}: \`if\` ${JSON.stringify(p.rule.source)} not decided, the hook did not run: ${unloaded}`,
          );
    for (const w of decision.warnings) state.warn(w);
    return decision;
  } finally {
    envFile?.dispose();
  }
}

/** The input checked (input.ts), with what the check needs (zod) loaded first. */
async function validateInput(event: EventName, input: Record<string, unknown>): Promise<void> {
  const issues = await loadedInputIssues(event, input);
  if (issues !== undefined) throw new InvalidHookInputError(event, issues);
}

/** What every backend of this firing is given (each execution sets its own timeout). */
function backendContext(state: EngineState, ctx: RunContext, cwd: string, envFile: string | undefined): BackendContext {
  const { options } = state;
  return {
    timeoutMs: 0,
    signal: ctx.signal,
    cwd,
    projectDir: state.projectDir,
    sessionEnv: options.sessionEnv ?? {},
    envFile,
    stdinLimitBytes: options.stdinLimitBytes ?? 100 * 1024,
    outputLimitBytes: options.outputLimitBytes ?? 1024 * 1024,
    session: ctx.session,
  };
}

/** Serial: config order, each hook sees the input as rewritten so far; stop at the first deny. */
async function runSerial(state: EngineState, f: Firing): Promise<void> {
  // An ask is remembered (reduce ranks it) while the chain goes on, so a later deny still wins.
  let current: Record<string, unknown> = f.input;
  for (const planned of f.matched) {
    if (f.signal?.aborted) break;
    const verdict = await runOne(state, f, planned, current);
    const last = f.entries[f.entries.length - 1]?.parsed;
    if (last?.updatedInput && verdict !== 'deny' && verdict !== 'block') {
      current = { ...current, tool_input: last.updatedInput };
    }
    if (verdict === 'deny' || verdict === 'block') break;
  }
}

/** Parallel: bounded by the engine-wide semaphore, merged in config order. */
async function runParallel(state: EngineState, f: Firing): Promise<void> {
  const results = await Promise.all(
    f.matched.map(async (planned) => {
      const payload = hookPayload(f.input);
      const hctx = { ...f.bctx, timeoutMs: timeoutFor(planned.hook.handler, f.spec) * 1000 };
      if (runsInBackground(planned)) {
        startAsync(state, planned, payload, hctx, f.event, f.obs);
        return undefined;
      }
      const result = await execute(state, planned, payload, hctx);
      return { planned, payload, result, parsed: parseResult(state, f.event, result, payload) };
    }),
  );
  for (const r of results) if (r) finish(state, f, r.planned, r.payload, r.result, r.parsed);
}

async function runOne(state: EngineState, f: Firing, planned: PlannedHook, currentInput: Record<string, unknown>) {
  const payload = hookPayload(currentInput);
  const hctx = { ...f.bctx, timeoutMs: timeoutFor(planned.hook.handler, f.spec) * 1000 };
  if (runsInBackground(planned)) {
    startAsync(state, planned, payload, hctx, f.event, f.obs);
    return undefined;
  }
  const result = await execute(state, planned, payload, hctx);
  const parsed = parseResult(state, f.event, result, payload);
  return finish(state, f, planned, payload, result, parsed);
}

/** Each execution's own id and time on top of the firing's input. */
function hookPayload(input: Record<string, unknown>): Record<string, unknown> {
  return { ...input, hook_execution_id: randomUUID(), timestamp: isoTime() };
}

/** One hook's answer, judged (failure policy, rewrite validation), recorded and audited; returns its verdict. */
function finish(
  state: EngineState,
  f: Firing,
  planned: PlannedHook,
  payload: Record<string, unknown>,
  result: ExecutionResult,
  parsed: ParsedHook,
) {
  const { options } = state;
  const { hook } = planned;
  const { spec } = f;
  const entry: ReduceEntry = {
    hookId: hook.id,
    parsed,
    // The engine could not run the hook as configured (`engineFault`: its matcher or `if` not
    // decided, a module it needs not loaded) on an event that can block: whether the guard would
    // allow is unknown, so fail closed whatever the failure policy says.
    failureBehavior:
      result.engineFault && policyVerdict(spec, 'deny') ? 'deny' : (hook.handler.failureBehavior ?? options.failureBehavior ?? 'ignore'),
    timeoutBehavior: hook.handler.timeoutBehavior ?? options.timeoutBehavior ?? 'ignore',
  };
  // An invalid rewrite is a validation error that denies the call, never a silent fallback.
  if (parsed.updatedInput && options.validateToolInput && typeof payload.tool_name === 'string') {
    const v = options.validateToolInput(payload.tool_name, parsed.updatedInput);
    if (!v.ok) {
      parsed.verdict = spec.decision === 'permission' || spec.decision === 'permission-request' ? 'deny' : 'block';
      parsed.reason = `hook ${hook.id} rewrote the input of ${payload.tool_name} invalidly: ${v.error}`;
      delete parsed.updatedInput;
    }
  }
  const eff = effectiveVerdict(f.event, entry, f.mode);
  const record = makeRecord(planned, result, parsed, eff.verdict, eff.reason ?? parsed.reason, eff.policy);
  if (options.captureIoBytes) record.io = captureIo(payload, result, options.captureIoBytes);
  f.entries.push(entry);
  f.records.push(record);
  state.audit?.(auditEntry(record, payload, f.sessionId, state.projectDir, options.auditIo));
  f.obs?.hook(record, payload);
  return eff.verdict;
}
