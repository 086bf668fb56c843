/**
 * One firing, the engine's single pipeline and the one place a Decision is made:
 *   plan (matcher, `if`, mode, a patch's per-file views: plan.ts, plan-views.ts)
 *   → execute and judge each answer (run-hooks.ts: serial or parallel, `once`, failure policy)
 *   → reduce (src/reduce/reduce.ts), given what spans firings (the session's Stop-block count)
 *     and what the hooks left behind (CLAUDE_ENV_FILE).
 * Nothing edits the Decision after reduce; entry points only translate it (docs/architecture.md).
 */
import { isDir } from '../util/file-kind.js';
import { buildHookEnv } from '../backends/env.js';
import type { BackendContext } from '../backends/types.js';
import { eventCheck } from '../events/compiled.js';
import {
  asksPermission,
  eventFacts,
  failsClosedWhenUnjudged,
  isEventName,
  permissionModeOf,
  skipsInPlanMode,
  type EventName,
} from '../events/facts.js';
import { emptyDecision, reduce, unjudgedDecision, type Decision } from '../reduce/reduce.js';
import type { FiringObservation } from '../telemetry/observe.js';
import { createEnvFile, evaluateEnvFile } from './env-file.js';
import { currentIndex, readyIndex } from './hooks.js';
import { coerceCommonFields, completeInput, InvalidHookInputError, loadedInputIssues } from './input.js';
import { planHooks, type PlanContext, type PlanIndex, type PlannedHook } from './plan.js';
import { isPatchFiring, planPatchViews } from './plan-views.js';
import { guardedWrite } from './guarded-files.js';
import { runHooks, type Firing } from './run-hooks.js';
import type { EngineState } from './state.js';
import type { RunContext } from './types.js';

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
  const planCtx: PlanContext = { cwd, homeDir: state.homeDir, projectDir: state.projectDir, foldCase: state.foldCase };
  const planned = planHooks(index, event, rawInput, planCtx);
  // The agent may not write the files its reviewed guards run or are configured in (guarded-files.ts).
  let refusal = index.guarded.size > 0 && asksPermission(spec) ? guardedWrite(index.guarded, rawInput, cwd, event) : undefined;
  if (refusal instanceof Promise) refusal = await refusal;
  const matched = refusal ? [refusal, ...planned] : planned;
  if (matched.length === 0 && !hasViews(index, event, rawInput, planCtx)) return emptyDecision(event);

  const input = completeInput(event, rawInput, { cwd, sessionId: ctx.sessionId ?? options.sessionId, mode });
  const notes = coerceCommonFields(input);
  // Accepted by the compiled validator: nothing to await (the hot path of in-process dispatch).
  const invalid = eventCheck('input', event)?.(input) ? undefined : await validateInput(state, event, input);
  if (invalid !== undefined) return unjudged(state, event, invalid, notes);

  const commands = matched.some((p) => p.hook.handler.type === 'command');
  const envFile = spec.envFile && commands ? createEnvFile() : undefined;
  const runDir = commands ? hookDir(state, cwd, notes) : cwd;
  const bctx = backendContext(state, ctx, runDir, envFile?.path);
  const sessionId = String(input.session_id);
  const f: Firing = {
    event,
    spec,
    mode,
    // A mode the host passes is its choice; one read from the payload is only what the agent reported.
    modeChosen: ctx.permissionMode !== undefined || options.trustReportedPermissionMode === true,
    input,
    index,
    planCtx,
    bctx,
    sessionId,
    counterSession: ctx.client ? `${ctx.client}:${sessionId}` : sessionId,
    signal: ctx.signal,
    obs,
    entries: [],
    records: [],
  };
  try {
    await runHooks(state, f, matched);
    const continuation = spec.continuationCap
      ? { before: await state.counters.read(f.counterSession, event), cap: state.stopCap }
      : undefined;
    const env = envFile ? await readEnvFile(state, bctx, envFile.path, runDir) : undefined;
    const decision = reduce(event, f.entries, f.records, {
      permissionMode: mode,
      modeChosen: f.modeChosen,
      continuation,
      env: env?.env,
      undeterminedPatch: f.undetermined,
      warnings:
        notes.length > 0 || env?.warning || unloaded !== undefined
          ? [...notes, ...(env?.warning ? [env.warning] : []), ...undecidedRules(matched, unloaded)]
          : undefined,
    });
    // From the store's own value, so a concurrent firing of the session (another process) is not lost.
    if (continuation) await state.counters.update(f.counterSession, event, (n) => (decision.blocked ? n + 1 : 0));
    for (const w of decision.warnings) state.warn(w);
    return decision;
  } finally {
    envFile?.dispose();
  }
}

/** Whether a patch's per-file views give hooks to run (or a patch the guards cannot be shown). */
function hasViews(index: PlanIndex, event: EventName, input: Record<string, unknown>, ctx: PlanContext): boolean {
  if (!isPatchFiring(event, input)) return false;
  const plan = planPatchViews(index, event, input, ctx);
  return plan.runs.length > 0 || plan.undetermined !== undefined;
}

/** What the SessionStart-like hooks exported through CLAUDE_ENV_FILE, read in their environment. */
async function readEnvFile(state: EngineState, bctx: BackendContext, path: string, cwd: string) {
  const base = buildHookEnv({ sessionEnv: bctx.sessionEnv, passEnv: state.options.passEnv, projectDir: state.projectDir, envFile: path });
  return evaluateEnvFile(path, base, cwd);
}

/** The hooks whose `if` could not be decided (the rule module did not load): each a note. */
function undecidedRules(matched: readonly PlannedHook[], unloaded: string | undefined): string[] {
  if (unloaded === undefined) return [];
  return matched
    .filter((p) => p.rule?.kind === 'unloaded')
    .map(
      (p) =>
        `hook ${p.hook.id}: \`if\` ${JSON.stringify((p.rule as { source: string }).source)} not decided, the hook did not run: ${unloaded}`,
    );
}

/**
 * The input checked (input.ts), with what the check needs (zod) loaded first: undefined when
 * valid; why it is denied where the engine answers an invalid input with a deny (`invalidInput`).
 */
async function validateInput(state: EngineState, event: EventName, input: Record<string, unknown>): Promise<string | undefined> {
  const issues = await loadedInputIssues(event, input);
  if (issues === undefined) return undefined;
  const err = new InvalidHookInputError(event, issues);
  if (state.options.invalidInput !== 'deny' || !failsClosedWhenUnjudged(event)) throw err;
  return `${err.message}; the hooks cannot judge an input they cannot be given, so it is denied`;
}

/** The Decision when no hook could be given the event (reduce.ts `unjudgedDecision`), noted on the engine's warnings. */
function unjudged(state: EngineState, event: EventName, why: string, notes: string[]): Decision {
  const decision = unjudgedDecision(event, why, 'deny', notes);
  for (const w of decision.warnings) state.warn(w);
  return decision;
}

/**
 * Where command hooks run: the firing's cwd, or the project directory when that cwd no longer
 * exists (the agent's shell can sit in a deleted directory), with a note. A hook that still cannot
 * start fails as the engine's failure (src/backends/command.ts), closed where the event can block.
 */
function hookDir(state: EngineState, cwd: string, notes: string[]): string {
  if (cwd === state.projectDir || isDir(cwd) || !isDir(state.projectDir)) return cwd;
  notes.push(`the working directory ${cwd} does not exist; hooks run in the project directory ${state.projectDir}`);
  return state.projectDir;
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
