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
import { lazyCounterStore } from '../engine/session-counters.js';
import type { EventName } from '../events/facts.js';
import { FILLERS } from '../events/tables.generated.js';
import type { DispatchInput, DispatchOutput, WireAdapter } from '../agents/types.js';
import { DISPATCH_ENV, type DispatchFlags } from './flags.js';
import { dispatchMarker } from './recursion-guard.js';

/**
 * Agents send fewer fields than Claude's schemas require (Cursor has no transcript, Copilot no
 * stop_hook_active): fill each missing required field with the first neutral value its schema
 * accepts, so hooks see a complete canonical payload instead of the engine refusing the event.
 * The values come from the schemas by src/events/derive.ts, read from the generated table.
 */
function completePayload(event: EventName, payload: Record<string, unknown>): Record<string, unknown> {
  const out = { ...payload };
  for (const [key, filler] of Object.entries(FILLERS[event])) {
    if (out[key] === undefined) out[key] = structuredClone(filler);
  }
  return out;
}

/** How long one dispatch waits for its audit records and exporter flush (ms). */
const DISPATCH_AUDIT_WAIT_MS = 300;

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
  const obs = await observabilityFor(config, cwd, (m) => (stderr += `agent-hooks dispatch: warning: ${m}\n`), DISPATCH_AUDIT_WAIT_MS);
  const engineOptions = {
    auditWriter: obs?.auditWriter,
    // The agent waits on this process: a sink that cannot write is named in the warnings (stderr)
    // after at most this long, and the flush at exit is bounded the same (docs/teams.md).
    auditWaitMs: DISPATCH_AUDIT_WAIT_MS,
    telemetry: obs?.telemetry ?? false,
    hooks: config.hooks,
    projectDir: cwd,
    cwd,
    // The recursion guard: a hook that itself calls `agent-hooks dispatch` gets a no-op answer
    // (honoured only below this very process: recursion-guard.ts).
    sessionEnv: { [DISPATCH_ENV]: dispatchMarker() },
    // One event per process: starting the helper would cost more than the fork it saves.
    spawner: false,
    // A hook that declares itself async on its first line is waited for, and its later context goes
    // with this answer: the process ends with the event, and the agent waits on it anyway (docs/backends.md).
    waitForAsyncDeclaration: true,
    // The agent reads dispatch's exit 1 as "proceed": an input of the wrong type is denied where
    // the event fails closed when unjudged (the engine decides: HookEngineOptions.invalidInput).
    invalidInput: 'deny' as const,
    // Every event is a new process: the session's Stop-block count and `once` hooks live in a
    // private file per session, so they hold across events as they do in one engine.
    // Loaded on first use: most events read no counter.
    sessionCounters: lazyCounterStore(async () =>
      (await import('../engine/session-file-store.js')).sessionCounterStoreFor({
        onWarning: (m) => (stderr += `agent-hooks dispatch: warning: ${m}\n`),
      }),
    ),
    ...engineOptionsFromConfig(config, wire.name),
    ...(flags.audit ? { audit: resolve(flags.audit) } : {}),
  };
  const engine = createHookEngine(engineOptions);
  try {
    const payload = completePayload(input.event, input.payload);
    // The agent's permission_mode is only reported (engine option trustReportedPermissionMode,
    // left false): under a reported bypass a hook's ask is denied, never turned into allow.
    const decision = await engine.run(input.event, payload);
    for (const w of decision.warnings) stderr += `agent-hooks dispatch: warning: ${w}\n`;
    const o = wire.encodeDecision(decision, { ...input, payload });
    // On exit 2 stderr is the reason the agent shows the model: nothing else may be mixed in.
    return o.exitCode === 2 ? o : { ...o, stderr: o.stderr + stderr };
  } catch (err) {
    if (err instanceof InvalidHookInputError) return { stdout: '', stderr: `${stderr}agent-hooks dispatch: ${err.message}\n`, exitCode: 1 };
    throw err;
  } finally {
    await engine.close();
    await obs?.close(DISPATCH_AUDIT_WAIT_MS);
  }
}
