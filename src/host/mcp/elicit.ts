/**
 * One MCP elicitation, from the server's request to the answer sent back:
 *
 *   schema check → Elicitation hooks (may answer, decline or cancel before any UI)
 *   → prompter (only when no hook decided; none = headless = decline)
 *   → ElicitationResult hooks (may replace the content, or change the action)
 *   → final validation against the requested schema (form mode, action accept).
 *
 * Whatever path produced it, an answer whose content does not pass the requested schema is
 * never sent: the outcome becomes `decline` and the trace says why. A decline or cancel by an
 * Elicitation hook is final: ElicitationResult hooks still see it, but cannot turn it into an
 * accept. Every step is recorded in `trace`, so a host can show who decided what.
 */
import type { EventName } from '../../events/catalog.js';
import type { Decision, HookRecord } from '../../reduce/reduce.js';
import type { RunContext } from '../../engine/engine.js';
import { compileElicitationSchema, type CompiledElicitationSchema, type ElicitContent } from './schema.js';

type ElicitAction = 'accept' | 'decline' | 'cancel';

/** What a server asked for (the params of `elicitation/create`, plus the server's name). */
export interface ElicitationRequest {
  /** The MCP server's name: the Elicitation matcher value, `mcp_server_name` of the payload. */
  server: string;
  message: string;
  /** Default "form". */
  mode?: 'form' | 'url';
  /** Form mode: MCP's flat object schema. */
  requestedSchema?: Record<string, unknown>;
  /** URL mode: where the user should go. */
  url?: string;
  elicitationId?: string;
}

export interface ElicitationAnswer {
  action: ElicitAction;
  /** Only with `accept` in form mode. */
  content?: ElicitContent;
}

/** Asks the user. Must honour the signal (the server cancelled, or the host is closing). */
export type ElicitationPrompter = (request: ElicitationRequest, ctx: { signal: AbortSignal }) => Promise<ElicitationAnswer>;

/** Anything that fires hooks: a HookEngine, or a session handle of src/session. */
export interface HookRunner {
  run(event: EventName, input: Record<string, unknown>, ctx?: RunContext): Promise<Decision>;
}

type ElicitationStage = 'schema' | 'Elicitation' | 'prompt' | 'ElicitationResult' | 'validate';

interface ElicitationStep {
  stage: ElicitationStage;
  /** The action after this step (absent when the step decided nothing). */
  action?: ElicitAction;
  /** What happened, in one sentence. */
  note: string;
  /** Hooks that ran in this step. */
  hooks?: HookRecord[];
}

export interface ElicitationOutcome extends ElicitationAnswer {
  /** Who produced the final action. */
  decidedBy: 'hook' | 'user' | 'headless' | 'result-hook' | 'validation' | 'schema' | 'error' | 'aborted';
  /** Set when the answer was turned into a decline or cancel by us (invalid content, bad schema, error). */
  message?: string;
  trace: ElicitationStep[];
}

export interface ElicitOptions {
  /** Hooks to fire; without it the request goes straight to the prompter. */
  hooks?: HookRunner;
  /** Asks the user; without it (headless) an undecided request is declined. */
  prompter?: ElicitationPrompter;
  /** Common input fields of the hook payloads: session_id, transcript_path, cwd, permission_mode. */
  input?: Record<string, unknown>;
  /** Passed to hooks.run (permission mode, session snapshot, …); its signal is replaced by `signal`. */
  runContext?: RunContext;
  /** Abort: the server cancelled the request or the host is closing. The outcome is then `cancel`. */
  signal?: AbortSignal;
}

/** One elicitation in progress: what the stages below read and append to. */
interface Run {
  request: ElicitationRequest;
  options: ElicitOptions;
  mode: 'form' | 'url';
  signal: AbortSignal;
  trace: ElicitationStep[];
  /** Fields every hook payload of this elicitation carries (mode, elicitation_id). */
  common: Record<string, unknown>;
  compiled?: CompiledElicitationSchema;
}

type Decided = ElicitationOutcome['decidedBy'];
/** A stage either moves the answer on, or ends the elicitation with an outcome. */
type Step<T> = { next: T } | { end: ElicitationOutcome };

/** Run one elicitation through hooks and prompter. Never throws. */
export async function elicit(request: ElicitationRequest, options: ElicitOptions = {}): Promise<ElicitationOutcome> {
  const run: Run = {
    request,
    options,
    mode: request.mode ?? 'form',
    signal: options.signal ?? new AbortController().signal,
    trace: [],
    common: {},
  };
  run.common.mode = run.mode;
  if (request.elicitationId !== undefined) run.common.elicitation_id = request.elicitationId;
  const { trace } = run;

  if (run.mode === 'form') {
    const c = await compileElicitationSchema(request.requestedSchema ?? { type: 'object', properties: {} });
    if (!c.ok) {
      trace.push({ stage: 'schema', action: 'decline', note: `declined without asking: ${c.error}` });
      return { action: 'decline', decidedBy: 'schema', message: c.error, trace };
    }
    run.compiled = c.compiled;
  }

  // 1. Elicitation hooks: answer, decline or cancel before any UI.
  const hooked = options.hooks ? await elicitationHooks(run) : { next: { hookDenied: false } };
  if ('end' in hooked) return hooked.end;
  // 2. The user, unless a hook decided.
  let { answer, decidedBy = 'user' } = hooked.next as { answer?: ElicitationAnswer; decidedBy?: Decided };
  if (!answer) {
    const asked = await askUser(run);
    if ('end' in asked) return asked.end;
    ({ answer, decidedBy } = asked.next);
  }
  // 3. ElicitationResult hooks: replace the content, or change the action.
  if (options.hooks) {
    const after = await resultHooks(run, answer, decidedBy, hooked.next.hookDenied);
    if ('end' in after) return after.end;
    ({ answer, decidedBy } = after.next);
  }
  // 4. The final content, whoever wrote it, must pass the requested schema.
  return finalCheck(run, answer, decidedBy);
}

function aborted(run: Run): ElicitationOutcome {
  run.trace.push({ stage: 'prompt', action: 'cancel', note: 'the request was cancelled before it was answered' });
  return { action: 'cancel', decidedBy: 'aborted', message: 'cancelled', trace: run.trace };
}

async function fire(
  run: Run,
  event: 'Elicitation' | 'ElicitationResult',
  fields: Record<string, unknown>,
): Promise<Decision | { error: string }> {
  try {
    return await run.options.hooks!.run(
      event,
      { ...run.options.input, mcp_server_name: run.request.server, ...fields },
      { ...run.options.runContext, signal: run.signal },
    );
  } catch (err) {
    return { error: (err as Error)?.message ?? String(err) };
  }
}

async function elicitationHooks(run: Run): Promise<Step<{ answer?: ElicitationAnswer; decidedBy?: Decided; hookDenied: boolean }>> {
  const { request, mode, trace } = run;
  const fields: Record<string, unknown> = { ...run.common, message: request.message };
  if (request.url !== undefined) fields.url = request.url;
  if (mode === 'form') fields.requested_schema = request.requestedSchema ?? run.compiled?.schema;
  const d = await fire(run, 'Elicitation', fields);
  if (run.signal.aborted) return { end: aborted(run) };
  if ('error' in d) {
    // A broken hook pipeline must not let the request through unseen: fail closed.
    trace.push({ stage: 'Elicitation', action: 'decline', note: `declined: Elicitation hooks could not run: ${d.error}` });
    return { end: { action: 'decline', decidedBy: 'error', message: d.error, trace } };
  }
  const hooks = d.hooks;
  const action = d.eventOutput.action as ElicitAction | undefined;
  if (d.blocked) {
    trace.push({ stage: 'Elicitation', action: 'decline', note: `a hook denied the request${d.reason ? `: ${d.reason}` : ''}`, hooks });
    return { next: { answer: { action: 'decline' }, decidedBy: 'hook', hookDenied: true } };
  }
  if (action === 'accept') {
    const content = d.eventOutput.content as ElicitContent | undefined;
    trace.push({ stage: 'Elicitation', action: 'accept', note: 'a hook answered the request', hooks });
    return {
      next: { answer: { action: 'accept', content: mode === 'form' ? (content ?? {}) : undefined }, decidedBy: 'hook', hookDenied: false },
    };
  }
  if (action === 'decline' || action === 'cancel') {
    trace.push({ stage: 'Elicitation', action, note: `a hook answered ${action}`, hooks });
    return { next: { answer: { action }, decidedBy: 'hook', hookDenied: true } };
  }
  trace.push({ stage: 'Elicitation', note: hooks.length ? 'hooks ran and left the request to the user' : 'no hooks matched', hooks });
  return { next: { hookDenied: false } };
}

async function askUser(run: Run): Promise<Step<{ answer: ElicitationAnswer; decidedBy: Decided }>> {
  const { trace, options } = run;
  if (!options.prompter) {
    trace.push({ stage: 'prompt', action: 'decline', note: 'no one to ask (headless): declined' });
    return { next: { answer: { action: 'decline' }, decidedBy: 'headless' } };
  }
  try {
    const a = await options.prompter(run.request, { signal: run.signal });
    if (run.signal.aborted) return { end: aborted(run) };
    const answer = normalizeAnswer(a);
    if (!answer) {
      trace.push({ stage: 'prompt', action: 'decline', note: `the prompter returned no valid action (${JSON.stringify(a)}): declined` });
      return { next: { answer: { action: 'decline' }, decidedBy: 'error' } };
    }
    trace.push({ stage: 'prompt', action: answer.action, note: `the user answered ${answer.action}` });
    return { next: { answer, decidedBy: 'user' } };
  } catch (err) {
    if (run.signal.aborted) return { end: aborted(run) };
    trace.push({ stage: 'prompt', action: 'cancel', note: `asking the user failed: ${(err as Error)?.message ?? String(err)}` });
    return { next: { answer: { action: 'cancel' }, decidedBy: 'error' } };
  }
}

async function resultHooks(
  run: Run,
  answer: ElicitationAnswer,
  decidedBy: Decided,
  hookDenied: boolean,
): Promise<Step<{ answer: ElicitationAnswer; decidedBy: Decided }>> {
  const { mode, trace } = run;
  const fields: Record<string, unknown> = { ...run.common, action: answer.action };
  if (answer.content !== undefined) fields.content = answer.content;
  const d = await fire(run, 'ElicitationResult', fields);
  if (run.signal.aborted) return { end: aborted(run) };
  if ('error' in d) {
    trace.push({ stage: 'ElicitationResult', action: 'decline', note: `declined: ElicitationResult hooks could not run: ${d.error}` });
    return { end: { action: 'decline', decidedBy: 'error', message: d.error, trace } };
  }
  const hooks = d.hooks;
  const action = d.eventOutput.action as ElicitAction | undefined;
  const content = d.eventOutput.content as ElicitContent | undefined;
  if (d.blocked) {
    const blocked: ElicitationAnswer = { action: answer.action === 'cancel' ? 'cancel' : 'decline' };
    trace.push({
      stage: 'ElicitationResult',
      action: blocked.action,
      note: `a hook blocked the response${d.reason ? `: ${d.reason}` : ''}`,
      hooks,
    });
    return { next: { answer: blocked, decidedBy: answer.action === 'accept' ? 'result-hook' : decidedBy } };
  }
  if (action === 'accept' && hookDenied) {
    trace.push({
      stage: 'ElicitationResult',
      action: answer.action,
      note: `a hook asked to accept, ignored: an Elicitation hook's ${answer.action} is final`,
      hooks,
    });
    return { next: { answer, decidedBy } };
  }
  if (action && action !== answer.action) {
    const changed: ElicitationAnswer =
      action === 'accept' ? { action, content: mode === 'form' ? (content ?? {}) : undefined } : { action };
    trace.push({
      stage: 'ElicitationResult',
      action,
      note: `a hook changed the action to ${action}${action === 'accept' && content ? ' with its content' : ''}`,
      hooks,
    });
    return { next: { answer: changed, decidedBy: 'result-hook' } };
  }
  if (content !== undefined && answer.action === 'accept' && mode === 'form') {
    trace.push({ stage: 'ElicitationResult', action: 'accept', note: 'a hook replaced the content', hooks });
    return { next: { answer: { action: 'accept', content }, decidedBy: 'result-hook' } };
  }
  trace.push({ stage: 'ElicitationResult', note: hooks.length ? 'hooks ran and kept the response' : 'no hooks matched', hooks });
  return { next: { answer, decidedBy } };
}

function finalCheck(run: Run, answer: ElicitationAnswer, decidedBy: Decided): ElicitationOutcome {
  const { trace } = run;
  if (answer.action !== 'accept') return { action: answer.action, decidedBy, trace };
  if (run.mode !== 'form') {
    trace.push({ stage: 'validate', action: 'accept', note: 'url mode: accepted without content' });
    return { action: 'accept', decidedBy, trace };
  }
  const check = run.compiled!.validate(answer.content ?? {});
  if (!check.ok) {
    const message = `the answer does not match the requested schema (${check.error}); declined, not sent`;
    trace.push({ stage: 'validate', action: 'decline', note: message });
    return { action: 'decline', decidedBy: 'validation', message, trace };
  }
  trace.push({ stage: 'validate', action: 'accept', note: 'the content matches the requested schema' });
  return { action: 'accept', content: check.content, decidedBy, trace };
}

function normalizeAnswer(a: unknown): ElicitationAnswer | undefined {
  if (typeof a !== 'object' || a === null) return undefined;
  const { action, content } = a as { action?: unknown; content?: unknown };
  if (action !== 'accept' && action !== 'decline' && action !== 'cancel') return undefined;
  if (action !== 'accept') return { action };
  return { action, content: content as ElicitContent | undefined };
}

/** One line per step, for logs and the demo trace. */
export function formatElicitationTrace(outcome: ElicitationOutcome): string[] {
  return outcome.trace.map((s) => `${s.stage}${s.action ? ` → ${s.action}` : ''}: ${s.note}`);
}
