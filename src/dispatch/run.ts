/**
 * The part of dispatch that runs hooks: load the engine's config (any dialect, trust gate),
 * complete the canonical payload, run the engine, encode the decision for the agent.
 * Imported only when a hook may fire (see dispatch.ts).
 */
import { observabilityFor } from '../telemetry/observe.js';
import { resolve } from 'node:path';
import { engineOptionsFromConfig } from '../load/engine-options.js';
import { loadFromFlags } from '../load/from-flags.js';
import { formatDiagnostic } from '../util/format-diagnostic.js';
import { createHookEngine, InvalidHookInputError } from '../engine/engine.js';
import { askMeetsBypass, type EventName } from '../events/facts.js';
import { FILLERS } from '../events/tables.generated.js';
import type { DispatchInput, DispatchOutput, WireAdapter } from '../agents/types.js';
import { isBypassMode, type Decision } from '../reduce/reduce.js';
import { DISPATCH_ENV, type DispatchFlags } from './flags.js';
import { combinePatchDecisions, denyUndeterminedPatch, patchViewPlan, runPatchViews } from '../engine/patch-views.js';

/**
 * Agents send fewer fields than Claude's schemas require (Cursor has no transcript, Copilot no
 * stop_hook_active): fill each missing required field with the first neutral value its schema
 * accepts, so hooks see a complete canonical payload instead of the engine refusing the event.
 * The values come from the schemas by src/events/derive.ts, read from the generated table.
 */
export function completePayload(event: EventName, payload: Record<string, unknown>): Record<string, unknown> {
  const out = { ...payload };
  for (const [key, filler] of Object.entries(FILLERS[event])) {
    if (out[key] === undefined) out[key] = structuredClone(filler);
  }
  return out;
}

/**
 * A hook's ask while the agent reports a bypass mode: the agent will not ask anyone, and the
 * approval the hook asked for cannot be skipped, so the call is denied with the reason.
 */
export function askUnderBypass(d: Decision, mode: string | undefined): Decision {
  if (d.decision !== 'ask' || !askMeetsBypass(d.event, mode)) return d;
  const why = d.reason?.trim() || 'a hook asked for confirmation';
  return {
    ...d,
    decision: 'deny',
    blocked: true,
    reason: `approval required, but the agent runs in ${mode} mode and will not ask the user: ${why}`,
  };
}

export async function runDispatch(wire: WireAdapter, input: DispatchInput, flags: DispatchFlags): Promise<DispatchOutput> {
  const cwd = resolve(flags.cwd ?? (typeof input.payload.cwd === 'string' && input.payload.cwd ? input.payload.cwd : process.cwd()));
  // One event per process: the trust gate verifies the scripts of this event's hooks only, and
  // the settings files are read in place (nothing else runs meanwhile; no thread pool to start).
  const config = await loadFromFlags({ ...flags, cwd } as Parameters<typeof loadFromFlags>[0], {
    events: [input.event],
    readFilesSync: true,
  });
  let stderr = config.diagnostics.map((d) => `agent-hooks dispatch: ${formatDiagnostic(d)}\n`).join('');
  // Audit sinks from settings and the opt-in OTLP exporter (docs/teams.md); nothing is loaded when neither is set.
  const obs = await observabilityFor(config, cwd, (m) => (stderr += `agent-hooks dispatch: warning: ${m}\n`));
  const engineOptions = {
    auditWriter: obs?.auditWriter,
    telemetry: obs?.telemetry ?? false,
    hooks: config.hooks,
    projectDir: cwd,
    cwd,
    // The recursion guard: a hook that itself calls `agent-hooks dispatch` gets a no-op answer.
    sessionEnv: { [DISPATCH_ENV]: '1' },
    // One event per process: starting the helper would cost more than the fork it saves.
    spawner: false,
    ...engineOptionsFromConfig(config),
    ...(flags.audit ? { audit: resolve(flags.audit) } : {}),
  };
  const engine = createHookEngine(engineOptions);
  try {
    const payload = completePayload(input.event, input.payload);
    const mode = typeof payload.permission_mode === 'string' ? payload.permission_mode : undefined;
    // The engine would turn a PreToolUse ask into allow in a bypass mode; under dispatch it must
    // not (`codex exec` always reports bypassPermissions): the engine sees the default mode and
    // the ask is settled below.
    const engineMode = isBypassMode(mode) ? 'default' : mode;
    const runCtx = engineMode ? { permissionMode: engineMode } : {};
    const main = await engine.run(input.event, payload, runCtx);
    // A patch also runs the Edit/Write hooks that do not name ApplyPatch, once per file (src/engine/patch-views.ts).
    const plan = patchViewPlan(input.event, payload, config.hooks);
    const patched = plan.undetermined
      ? denyUndeterminedPatch(main, plan.undetermined)
      : plan.runs.length
        ? combinePatchDecisions(
            main,
            await runPatchViews(plan.runs, input.event, runCtx, (hooks) => createHookEngine({ ...engineOptions, hooks })),
          )
        : main;
    const decision = askUnderBypass(patched, mode);
    for (const w of decision.warnings) stderr += `agent-hooks dispatch: warning: ${w}\n`;
    const o = wire.encodeDecision(decision, { ...input, payload });
    // On exit 2 stderr is the reason the agent shows the model: nothing else may be mixed in.
    return o.exitCode === 2 ? o : { ...o, stderr: o.stderr + stderr };
  } catch (err) {
    if (err instanceof InvalidHookInputError) return { stdout: '', stderr: `${stderr}agent-hooks dispatch: ${err.message}\n`, exitCode: 1 };
    throw err;
  } finally {
    await engine.close();
    await obs?.close();
  }
}
