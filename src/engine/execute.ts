/** Running one planned hook: its backend, under the engine-wide bound, through its dialect bridge. */
import { makeResult } from '../backends/result.js';
import type { BackendContext } from '../backends/types.js';
import { outputNeedsZod, parseExecution, type ParsedHook } from '../parse/output.js';
import type { ExecutionResult, HookVerifier } from '../types.js';
import { undecided, type PlannedHook } from './plan.js';
import type { EngineState } from './state.js';

export async function execute(
  state: EngineState,
  planned: PlannedHook,
  payload: Record<string, unknown>,
  ctx: BackendContext,
): Promise<ExecutionResult> {
  const backend = state.backends[planned.hook.handler.type];
  if (!backend) {
    return errorResult(`no backend for hook type "${planned.hook.handler.type}" in this engine`);
  }
  // Whether the hook applies is unknown (plan.ts `undecided`): reported, never run, and an engine
  // fault, which `finish` fails closed.
  const unknown = undecided(planned);
  if (unknown !== undefined) return makeResult({ status: 'error', error: unknown, engineFault: true });
  // A reviewed hook is verified where it runs, before it runs (src/trust/verify.ts): one that is not
  // what was reviewed never runs, and the engine fails closed, as for any fault of its own.
  // Under the sandbox the verified bytes themselves are what runs (src/backends/sandbox-view.ts).
  const serve = state.options.sandbox === 'bwrap' || state.options.sandbox === 'view';
  const check = planned.hook.verify ? await verifyHook(planned.hook.verify, ctx, serve) : undefined;
  if (check && 'failed' in check) return makeResult({ status: 'error', error: check.failed, engineFault: true });
  let hook = planned.hook;
  if (check?.where) {
    const { roots, ...dirs } = check.where;
    ctx = { ...ctx, ...dirs, ...(check.served ? { served: check.served } : {}) };
    hook = { ...hook, source: { ...hook.source, ...roots } };
  }
  // A free slot is taken without a wait (an await per hook is a measurable share of in-process dispatch).
  const release = state.semaphore.tryAcquire() ?? (await state.semaphore.acquire());
  try {
    // A dialect hook (Gemini, Kimi, …) gets its own agent's payload, and its answer is read in that agent's convention.
    const bridge = hook.bridge;
    const result = bridge
      ? bridge.decodeResult(hook, payload, await backend(hook, bridge.encodePayload(hook, payload), ctx))
      : await backend(hook, payload, ctx);
    // The output is parsed synchronously (parseResult): zod is loaded first if it will decide.
    if (outputNeedsZod(planned.hook.event, result)) await import('../events/schemas.js'); // fills the slot
    // What it executed changed while it ran: its answer is not the reviewed guard's.
    const changed = check?.recheck ? await check.recheck() : undefined;
    if (changed !== undefined) return makeResult({ status: 'error', error: changed, engineFault: true });
    // A reviewed guard its shell could not execute (126: its x bit dropped, which no record holds)
    // did not run: the engine's failure, not the hook's, so it fails closed.
    if (check && result.status === 'completed' && result.exitCode === 126)
      return makeResult({
        status: 'error',
        error: `the reviewed hook could not be executed (exit 126): ${result.stderr.trim().split('\n')[0]}`,
        engineFault: true,
      });
    return result;
  } catch (err) {
    return errorResult(`backend failed: ${(err as Error)?.message ?? String(err)}`);
  } finally {
    release();
  }
}

/** Reads a hook's result in its event's output convention. */
export function parseResult(
  state: EngineState,
  event: Parameters<typeof parseExecution>[0],
  result: ExecutionResult,
  payload: Record<string, unknown>,
): ParsedHook {
  return parseExecution(event, result, {
    spillDir: state.options.spillDir,
    ...(typeof payload.tool_name === 'string' ? { toolName: payload.tool_name } : {}),
  });
}

/** No backend, or one that threw (a file it could not make, a full disk): the engine's failure, never the hook's. */
function errorResult(error: string): ExecutionResult {
  return makeResult({ status: 'error', error, engineFault: true });
}

async function verifyHook(verify: HookVerifier, ctx: BackendContext, serve: boolean): ReturnType<HookVerifier> {
  try {
    return await verify({ cwd: ctx.cwd, projectDir: ctx.projectDir, ...(serve ? { serve } : {}) });
  } catch (err) {
    return { failed: `the hook could not be verified: ${(err as Error)?.message ?? String(err)}` };
  }
}
