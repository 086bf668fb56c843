/**
 * One MCP elicitation, from the server's request to the answer sent back (the
 * Elicitation branch of McpClient):
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

export type ElicitAction = 'accept' | 'decline' | 'cancel';

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

export type ElicitationStage = 'schema' | 'Elicitation' | 'prompt' | 'ElicitationResult' | 'validate';

export interface ElicitationStep {
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

/** Run one elicitation through hooks and prompter. Never throws. */
export async function elicit(request: ElicitationRequest, options: ElicitOptions = {}): Promise<ElicitationOutcome> {
  const trace: ElicitationStep[] = [];
  const mode = request.mode ?? 'form';
  const signal = options.signal ?? new AbortController().signal;
  const aborted = (): ElicitationOutcome => {
    trace.push({ stage: 'prompt', action: 'cancel', note: 'the request was cancelled before it was answered' });
    return { action: 'cancel', decidedBy: 'aborted', message: 'cancelled', trace };
  };

  let compiled: CompiledElicitationSchema | undefined;
  if (mode === 'form') {
    const c = await compileElicitationSchema(request.requestedSchema ?? { type: 'object', properties: {} });
    if (!c.ok) {
      trace.push({ stage: 'schema', action: 'decline', note: `declined without asking: ${c.error}` });
      return { action: 'decline', decidedBy: 'schema', message: c.error, trace };
    }
    compiled = c.compiled;
  }

  const fire = async (event: 'Elicitation' | 'ElicitationResult', fields: Record<string, unknown>): Promise<Decision | { error: string }> => {
    try {
      return await options.hooks!.run(event, { ...options.input, mcp_server_name: request.server, ...fields }, { ...options.runContext, signal });
    } catch (err) {
      return { error: (err as Error)?.message ?? String(err) };
    }
  };
  const common: Record<string, unknown> = { mode };
  if (request.elicitationId !== undefined) common.elicitation_id = request.elicitationId;

  // 1. Elicitation hooks: answer, decline or cancel before any UI.
  let answer: ElicitationAnswer | undefined;
  let decidedBy: ElicitationOutcome['decidedBy'] = 'user';
  let hookDenied = false;
  if (options.hooks) {
    const fields: Record<string, unknown> = { ...common, message: request.message };
    if (request.url !== undefined) fields.url = request.url;
    if (mode === 'form') fields.requested_schema = request.requestedSchema ?? compiled?.schema;
    const d = await fire('Elicitation', fields);
    if (signal.aborted) return aborted();
    if ('error' in d) {
      // A broken hook pipeline must not let the request through unseen: fail closed.
      trace.push({ stage: 'Elicitation', action: 'decline', note: `declined: Elicitation hooks could not run: ${d.error}` });
      return { action: 'decline', decidedBy: 'error', message: d.error, trace };
    }
    const hooks = d.hooks;
    const action = d.eventOutput.action as ElicitAction | undefined;
    if (d.blocked) {
      answer = { action: 'decline' };
      hookDenied = true;
      trace.push({ stage: 'Elicitation', action: 'decline', note: `a hook denied the request${d.reason ? `: ${d.reason}` : ''}`, hooks });
    } else if (action === 'accept') {
      const content = d.eventOutput.content as ElicitContent | undefined;
      answer = { action: 'accept', content: mode === 'form' ? (content ?? {}) : undefined };
      trace.push({ stage: 'Elicitation', action: 'accept', note: 'a hook answered the request', hooks });
    } else if (action === 'decline' || action === 'cancel') {
      answer = { action };
      hookDenied = true;
      trace.push({ stage: 'Elicitation', action, note: `a hook answered ${action}`, hooks });
    } else {
      trace.push({ stage: 'Elicitation', note: hooks.length ? 'hooks ran and left the request to the user' : 'no hooks matched', hooks });
    }
    if (answer) decidedBy = 'hook';
  }

  // 2. The user, unless a hook decided.
  if (!answer) {
    if (!options.prompter) {
      answer = { action: 'decline' };
      decidedBy = 'headless';
      trace.push({ stage: 'prompt', action: 'decline', note: 'no one to ask (headless): declined' });
    } else {
      try {
        const a = await options.prompter(request, { signal });
        if (signal.aborted) return aborted();
        answer = normalizeAnswer(a);
        if (!answer) {
          answer = { action: 'decline' };
          decidedBy = 'error';
          trace.push({ stage: 'prompt', action: 'decline', note: `the prompter returned no valid action (${JSON.stringify(a)}): declined` });
        } else {
          trace.push({ stage: 'prompt', action: answer.action, note: `the user answered ${answer.action}` });
        }
      } catch (err) {
        if (signal.aborted) return aborted();
        answer = { action: 'cancel' };
        decidedBy = 'error';
        trace.push({ stage: 'prompt', action: 'cancel', note: `asking the user failed: ${(err as Error)?.message ?? String(err)}` });
      }
    }
  }

  // 3. ElicitationResult hooks: replace the content, or change the action.
  if (options.hooks) {
    const fields: Record<string, unknown> = { ...common, action: answer.action };
    if (answer.content !== undefined) fields.content = answer.content;
    const d = await fire('ElicitationResult', fields);
    if (signal.aborted) return aborted();
    if ('error' in d) {
      trace.push({ stage: 'ElicitationResult', action: 'decline', note: `declined: ElicitationResult hooks could not run: ${d.error}` });
      return { action: 'decline', decidedBy: 'error', message: d.error, trace };
    }
    const hooks = d.hooks;
    const action = d.eventOutput.action as ElicitAction | undefined;
    const content = d.eventOutput.content as ElicitContent | undefined;
    if (d.blocked) {
      if (answer.action === 'accept') decidedBy = 'result-hook';
      answer = { action: answer.action === 'cancel' ? 'cancel' : 'decline' };
      trace.push({ stage: 'ElicitationResult', action: answer.action, note: `a hook blocked the response${d.reason ? `: ${d.reason}` : ''}`, hooks });
    } else if (action === 'accept' && hookDenied) {
      trace.push({ stage: 'ElicitationResult', action: answer.action, note: `a hook asked to accept, ignored: an Elicitation hook's ${answer.action} is final`, hooks });
    } else if (action && action !== answer.action) {
      answer = action === 'accept' ? { action, content: mode === 'form' ? (content ?? {}) : undefined } : { action };
      decidedBy = 'result-hook';
      trace.push({ stage: 'ElicitationResult', action, note: `a hook changed the action to ${action}${action === 'accept' && content ? ' with its content' : ''}`, hooks });
    } else if (content !== undefined && answer.action === 'accept' && mode === 'form') {
      answer = { action: 'accept', content };
      decidedBy = 'result-hook';
      trace.push({ stage: 'ElicitationResult', action: 'accept', note: 'a hook replaced the content', hooks });
    } else {
      trace.push({ stage: 'ElicitationResult', note: hooks.length ? 'hooks ran and kept the response' : 'no hooks matched', hooks });
    }
  }

  // 4. The final content, whoever wrote it, must pass the requested schema.
  if (answer.action !== 'accept') return { action: answer.action, decidedBy, trace };
  if (mode !== 'form') {
    trace.push({ stage: 'validate', action: 'accept', note: 'url mode: accepted without content' });
    return { action: 'accept', decidedBy, trace };
  }
  const check = compiled!.validate(answer.content ?? {});
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
