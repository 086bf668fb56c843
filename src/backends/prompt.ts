/**
 * Prompt hook backend: ask a model to judge the hook input, get `{ ok, reason? }` back,
 * and turn that into the Claude JSON output (or exit code) the event understands, so the
 * parse and reduce stages stay generic.
 *
 * The model is reached through a ModelProvider. The real one speaks OpenAI-compatible chat
 * completions over HTTP. Its endpoint is operator configuration (engine options or the
 * AGENT_HOOKS_MODEL_* environment), never hook configuration, so the HTTP-hook target policy
 * does not apply to it: local model servers on loopback are a normal setup.
 *
 * Model resolution is cached per `session + project + requested model` (bounded LRU) and
 * prefers the session's frozen snapshot over live settings: once a session has resolved a
 * model, changing the global default does not change that session's model.
 */
import { makeResult } from './result.js';
import { startDeadline } from './deadline.js';
import { nowMs } from '../util/clock.js';
import { LRUCache } from 'lru-cache';
import { request } from 'undici';
import { z } from 'zod';
import type { Backend, BackendContext } from './types.js';
import { llmVerdictOf, type EventName } from '../events/facts.js';
import { formatZodIssues } from '../parse/output.js';
import type { ExecutionResult, NormalizedHook, PromptHandler, SessionSnapshot } from '../types.js';
import { encodeHookPayload } from './payload.js';
import { isObject } from '../util/is-object.js';

export interface ModelRequest {
  model: string;
  system?: string;
  prompt: string;
  signal: AbortSignal;
  timeoutMs: number;
}

/** Anything that can answer one prompt. */
export interface ModelProvider {
  complete(req: ModelRequest): Promise<{ text: string }>;
}

export interface OpenAICompatibleOptions {
  /** Base URL including the API version path, e.g. http://127.0.0.1:11434/v1. */
  baseUrl: string;
  apiKey?: string;
  /** Used when a request names no model. */
  defaultModel?: string;
  /** Cap on the provider's response body (default 1 MiB). */
  maxResponseBytes?: number;
}

const chatResponseSchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
});

/** An error from the model provider; its message never contains the API key. */
export class ModelProviderError extends Error {
  override name = 'ModelProviderError';
}

/** The real provider: POST {baseUrl}/chat/completions. */
export function openAICompatibleProvider(opts: OpenAICompatibleOptions): ModelProvider {
  let endpoint: URL;
  try {
    endpoint = new URL('chat/completions', opts.baseUrl.endsWith('/') ? opts.baseUrl : `${opts.baseUrl}/`);
  } catch {
    throw new ModelProviderError(`model base URL ${JSON.stringify(opts.baseUrl)} is not a valid URL`);
  }
  const limit = opts.maxResponseBytes ?? 1024 * 1024;
  return {
    async complete(req) {
      const model = req.model || opts.defaultModel;
      if (!model) throw new ModelProviderError('no model given and no default model configured');
      const messages = [...(req.system ? [{ role: 'system', content: req.system }] : []), { role: 'user', content: req.prompt }];
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
      let res: Awaited<ReturnType<typeof request>>;
      try {
        res = await request(endpoint, {
          method: 'POST',
          headers,
          body: JSON.stringify({ model, messages, temperature: 0 }),
          signal: req.signal,
          headersTimeout: req.timeoutMs + 1000,
          bodyTimeout: req.timeoutMs + 1000,
        });
      } catch (err) {
        if (req.signal.aborted) throw err;
        const e = err as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
        throw new ModelProviderError(`model endpoint ${endpoint.origin} unreachable: ${e.cause?.code ?? e.code ?? e.message}`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.body.on('error', () => {}); // an early destroy emits an abort error nobody else listens to
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > limit) {
          res.body.destroy();
          throw new ModelProviderError(`model endpoint response exceeds ${limit} bytes`);
        }
        chunks.push(chunk as Buffer);
      }
      if (res.statusCode < 200 || res.statusCode >= 300) {
        throw new ModelProviderError(`model endpoint ${endpoint.origin} answered HTTP ${res.statusCode}`);
      }
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        throw new ModelProviderError('model endpoint answered with a body that is not JSON');
      }
      const parsed = chatResponseSchema.safeParse(body);
      if (!parsed.success) throw new ModelProviderError(`model endpoint answer is not a chat completion: ${formatZodIssues(parsed.error)}`);
      return { text: parsed.data.choices[0]!.message.content ?? '' };
    },
  };
}

/**
 * `$ARGUMENTS` → the hook input JSON; `\$` → a literal `$`. Without `$ARGUMENTS` the input
 * JSON is appended after a blank line (the reference's rule).
 */
export function renderPrompt(template: string, inputJson: string): string {
  let out = '';
  let used = false;
  for (let i = 0; i < template.length; i++) {
    if (template[i] === '\\' && template[i + 1] === '$') {
      out += '$';
      i++;
    } else if (template.startsWith('$ARGUMENTS', i)) {
      out += inputJson;
      used = true;
      i += '$ARGUMENTS'.length - 1;
    } else out += template[i];
  }
  return used ? out : `${out}\n\n${inputJson}`;
}

const modelAnswerSchema = z.object({
  ok: z.boolean(),
  reason: z.string().optional(),
  impossible: z.boolean().optional(),
});
export type ModelAnswer = z.infer<typeof modelAnswerSchema>;

/** The model's text → its answer. A single fenced code block around the JSON is tolerated. */
export function parseModelAnswer(text: string): { ok: true; answer: ModelAnswer } | { ok: false; error: string } {
  let t = text.trim();
  const fence = /^```[A-Za-z0-9_-]*[ \t]*\r?\n?([\s\S]*?)\r?\n?```$/.exec(t);
  if (fence) t = fence[1]!.trim();
  const snippet = text.trim().length > 200 ? `${text.trim().slice(0, 200)}…` : text.trim();
  let value: unknown;
  try {
    value = JSON.parse(t);
  } catch {
    return { ok: false, error: `model answer is not JSON: ${JSON.stringify(snippet)}` };
  }
  if (!isObject(value)) return { ok: false, error: `model answer is not a JSON object: ${JSON.stringify(snippet)}` };
  const parsed = modelAnswerSchema.safeParse(value);
  if (!parsed.success)
    return { ok: false, error: `model answer does not match {"ok": boolean, "reason"?: string}: ${formatZodIssues(parsed.error)}` };
  return { ok: true, answer: parsed.data };
}

/** What an ok:false answer becomes on an event: Claude JSON on stdout, or exit 2 + stderr. */
export interface VerdictOutput {
  exitCode: 0 | 2;
  stdout: string;
  stderr: string;
}

/**
 * ok:false → the event's own blocking output, following the reference's per-event table (the
 * catalog's `llmVerdict`, events/facts.ts).
 * `continueOnBlock` (prompt hooks) and agent hooks feed the reason back instead of ending the turn.
 */
export function verdictOutput(
  event: EventName,
  answer: ModelAnswer,
  mode: { continueOnBlock?: boolean; agent?: boolean } = {},
): VerdictOutput {
  if (answer.ok) return { exitCode: 0, stdout: '', stderr: '' };
  const reason = answer.reason?.trim() || 'the prompt hook answered ok: false without a reason';
  const feedBack = mode.continueOnBlock === true || mode.agent === true;
  const json = (o: Record<string, unknown>): VerdictOutput => ({ exitCode: 0, stdout: JSON.stringify(o), stderr: '' });
  const block = () => json({ decision: 'block', reason });
  const endTurn = () => json({ continue: false, stopReason: reason });
  const exit2 = (): VerdictOutput => ({ exitCode: 2, stdout: '', stderr: reason });
  const noEffect = (why: string): VerdictOutput => ({ exitCode: 0, stdout: '', stderr: `ok:false ignored: ${why}` });

  switch (llmVerdictOf(event)) {
    case 'stop-block':
      // impossible: the condition can never hold, so stop instead of looping (prompt hooks only).
      if (answer.impossible === true && !mode.agent) return noEffect('the model judged the condition impossible; stopping');
      return block();
    case 'deny': {
      const hookSpecificOutput = { hookEventName: event, permissionDecision: 'deny', permissionDecisionReason: reason };
      return json(feedBack ? { hookSpecificOutput } : { continue: false, stopReason: reason, hookSpecificOutput });
    }
    case 'block-or-end':
      return feedBack ? block() : endTurn();
    case 'block':
      return block();
    case 'exit2':
      return exit2();
    case 'exit2-or-end':
      return feedBack ? exit2() : endTurn();
    case 'ignored':
      return noEffect(`${event} ignores prompt-hook verdicts (use a command hook)`);
    case 'none':
      return noEffect(`${event} cannot be blocked`);
  }
}

const SYSTEM_PROMPT = [
  'You judge one condition for a hook of an automated coding agent.',
  'The user message holds the instructions and the hook input (JSON).',
  'Answer with one JSON object and nothing else:',
  '{"ok": true} when the condition holds, or {"ok": false, "reason": "<one or two sentences>"} when it does not.',
  'Add "impossible": true to an ok:false answer only when the condition can never be met.',
].join('\n');

export interface PromptBackendOptions {
  /** Injected provider (tests, custom SDKs). Default: an OpenAI-compatible provider from baseUrl/apiKey. */
  provider?: ModelProvider;
  /** Default: the session snapshot's env, then process.env AGENT_HOOKS_MODEL_BASE_URL. */
  baseUrl?: string;
  /** Default: the session snapshot's env, then process.env AGENT_HOOKS_MODEL_API_KEY. */
  apiKey?: string;
  /** Model when neither the hook nor the session names one; a function is read at first use per session. */
  defaultModel?: string | (() => string | undefined);
  /** Entries in the session+project+model cache (default 64). */
  cacheSize?: number;
  /** Judge `agent` hooks with one model call, as prompt hooks with continueOnBlock (default false: they fail). */
  agentAsSingleTurn?: boolean;
  /** Environment read for AGENT_HOOKS_MODEL_* when the session has no snapshot env (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
}

interface Resolved {
  provider: ModelProvider;
  model: string;
}

const MODEL_ENV = {
  baseUrl: 'AGENT_HOOKS_MODEL_BASE_URL',
  apiKey: 'AGENT_HOOKS_MODEL_API_KEY',
  model: 'AGENT_HOOKS_MODEL',
} as const;

export interface PromptBackends {
  prompt: Backend;
  agent: Backend;
  /** The resolution cache (session + project + requested model → provider + model). */
  cache: { readonly size: number; keys(): string[] };
}

function baseResult(start: number, partial: Partial<ExecutionResult> & Pick<ExecutionResult, 'status'>): ExecutionResult {
  return makeResult(partial, start);
}

/** What every call of one pair of backends shares: the options and the resolution cache. */
interface PromptState {
  options: PromptBackendOptions;
  cache: LRUCache<string, Resolved>;
}

export function createPromptBackends(options: PromptBackendOptions = {}): PromptBackends {
  const cache = new LRUCache<string, Resolved>({ max: Math.max(1, options.cacheSize ?? 64) });
  const backends: PromptState = { options, cache };

  return {
    prompt: (hook, payload, ctx) => judge(backends, hook, payload, ctx, false),
    agent: async (hook, payload, ctx) => {
      if (options.agentAsSingleTurn) return judge(backends, hook, payload, ctx, true);
      return baseResult(nowMs(), {
        status: 'error',
        error:
          'agent hooks (a multi-turn verifier with tool access) are not implemented in this engine; ' +
          'set prompt.agentAsSingleTurn to judge them with a single model call',
      });
    },
    cache: {
      get size() {
        return cache.size;
      },
      keys: () => [...cache.keys()],
    },
  };
}

/** The provider and model for a hook, cached per session, project and requested model; a string says what is missing. */
function resolveModel(
  backends: PromptState,
  handler: PromptHandler,
  sessionId: string,
  projectDir: string,
  session?: SessionSnapshot,
): Resolved | string {
  const requested = handler.model ?? session?.model ?? '';
  const key = `${sessionId}\0${projectDir}\0${requested}`;
  const { options, cache } = backends;
  const hit = cache.get(key);
  if (hit) return hit;
  const live = options.env ?? process.env;
  const frozen = session?.env;
  const pick = (name: string, explicit?: string) => frozen?.[name] ?? explicit ?? live[name];
  const globalDefault = typeof options.defaultModel === 'function' ? options.defaultModel() : options.defaultModel;
  const model = requested || frozen?.[MODEL_ENV.model] || globalDefault || live[MODEL_ENV.model];
  if (!model) return `no model for prompt hooks: set the hook's "model", ${MODEL_ENV.model}, or the engine's prompt.defaultModel`;
  let provider = options.provider;
  if (!provider) {
    const baseUrl = pick(MODEL_ENV.baseUrl, options.baseUrl);
    if (!baseUrl) return `no model provider for prompt hooks: set ${MODEL_ENV.baseUrl} or the engine's prompt.provider`;
    try {
      provider = openAICompatibleProvider({ baseUrl, apiKey: pick(MODEL_ENV.apiKey, options.apiKey), defaultModel: model });
    } catch (err) {
      return (err as Error).message;
    }
  }
  const resolved = { provider, model };
  cache.set(key, resolved);
  return resolved;
}

/** One model call judging a prompt (or single-turn agent) hook, within the hook's timeout. */
async function judge(
  backends: PromptState,
  hook: NormalizedHook,
  payload: Record<string, unknown>,
  ctx: BackendContext,
  agent: boolean,
): Promise<ExecutionResult> {
  const start = nowMs();
  const handler = hook.handler as PromptHandler;
  const kind = agent ? 'agent hook' : 'prompt hook';
  if (ctx.signal?.aborted) return baseResult(start, { status: 'aborted', error: `${kind}: cancelled before it started` });
  const sessionId = ctx.session?.sessionId ?? (typeof payload.session_id === 'string' ? payload.session_id : 'default');
  const resolved = resolveModel(backends, handler, sessionId, ctx.projectDir, ctx.session);
  if (typeof resolved === 'string') return baseResult(start, { status: 'error', error: `${kind}: ${resolved}` });

  const input = encodeHookPayload(payload, ctx.stdinLimitBytes);
  if (input.refused !== undefined) return baseResult(start, { status: 'error', error: `${kind}: ${input.refused}`, engineFault: true });
  const prompt = renderPrompt(handler.prompt, input.text);
  const deadline = startDeadline(ctx.timeoutMs, ctx.signal);
  const stdinTruncated = input.truncated;
  try {
    // The race makes the timeout hold even against a provider that ignores its signal.
    const aborted = new Promise<never>((_, reject) => {
      deadline.signal.addEventListener('abort', () => reject(deadline.signal.reason), { once: true });
    });
    const { text } = await Promise.race([
      resolved.provider.complete({
        model: resolved.model,
        system: SYSTEM_PROMPT,
        prompt,
        signal: deadline.signal,
        timeoutMs: ctx.timeoutMs,
      }),
      aborted,
    ]);
    const answer = parseModelAnswer(text);
    if (!answer.ok) return baseResult(start, { status: 'error', error: `${kind}: ${answer.error}`, stdinTruncated });
    const out = verdictOutput(hook.event, answer.answer, { continueOnBlock: handler.continueOnBlock, agent });
    return baseResult(start, { status: 'completed', ...out, stdinTruncated });
  } catch (err) {
    if (deadline.timedOut)
      return baseResult(start, { status: 'timeout', error: `${kind}: model did not answer within ${ctx.timeoutMs} ms`, stdinTruncated });
    if (ctx.signal?.aborted) return baseResult(start, { status: 'aborted', error: `${kind}: cancelled`, stdinTruncated });
    return baseResult(start, { status: 'error', error: `${kind}: ${(err as Error)?.message ?? String(err)}`, stdinTruncated });
  } finally {
    deadline.dispose();
  }
}
