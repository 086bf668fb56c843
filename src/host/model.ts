/**
 * The agent's model: one call per step, messages in, text and tool calls out.
 * - scriptedModel: a list of turns, for tests and the demo (deterministic, no network).
 * - openAIChatModel: an OpenAI-compatible chat-completions endpoint over HTTP (undici), with
 *   function tools built from the tools' zod schemas.
 * A failure is a ModelError whose `kind` is StopFailure's `error` vocabulary.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { z } from 'zod';
import { formatZodIssues } from '../parse/output.js';
import type { HostTool, ToolCall } from './types.js';

export interface Message {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** Assistant messages: the calls it made. */
  toolCalls?: ToolCall[];
  /** Tool messages: which call this is the result of. */
  toolCallId?: string;
}

export interface ModelRequest {
  messages: readonly Message[];
  tools: readonly HostTool[];
  signal: AbortSignal;
  /** Set when a subagent is asking. */
  agent?: { id: string; type: string };
}

export interface ModelReply {
  text: string;
  toolCalls: ToolCall[];
}

export interface Model {
  readonly name: string;
  complete(request: ModelRequest): Promise<ModelReply>;
}

/** StopFailure's error types. */
export type ModelErrorKind =
  | 'rate_limit'
  | 'overloaded'
  | 'authentication_failed'
  | 'billing_error'
  | 'invalid_request'
  | 'model_not_found'
  | 'server_error'
  | 'max_output_tokens'
  | 'unknown';

export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly details?: string,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}

/** A scripted turn: text and/or tool calls (ids are generated when missing), or a function of the request. */
export type ScriptedTurn =
  | {
      text?: string;
      toolCalls?: Array<{ id?: string; name: string; input: Record<string, unknown> }>;
      error?: { kind: ModelErrorKind; message: string };
    }
  | ((request: ModelRequest) => ModelReply | Promise<ModelReply>);

export interface ScriptedModel extends Model {
  /** Turns not consumed yet. */
  readonly remaining: number;
  /** Every request seen, in order (copies of the messages). */
  readonly requests: ReadonlyArray<{ messages: Message[]; agent?: { id: string; type: string } }>;
}

/**
 * Replays `turns` in order, one per model call, whoever calls (a subagent's calls take the next
 * turns, so a script lists the parent's and the subagent's turns in the order they happen).
 * Running out is a ModelError (`invalid_request`), so a script that is too short fails loudly.
 */
export function scriptedModel(turns: readonly ScriptedTurn[], name = 'scripted'): ScriptedModel {
  const queue = [...turns];
  const requests: Array<{ messages: Message[]; agent?: { id: string; type: string } }> = [];
  let seq = 0;
  return {
    name,
    get remaining() {
      return queue.length;
    },
    requests,
    async complete(req) {
      if (req.signal.aborted) throw req.signal.reason ?? new Error('aborted');
      requests.push({ messages: req.messages.map((m) => ({ ...m })), ...(req.agent ? { agent: req.agent } : {}) });
      const turn = queue.shift();
      if (!turn) throw new ModelError('invalid_request', 'the scripted model has no turns left');
      if (typeof turn === 'function') return turn(req);
      if (turn.error) throw new ModelError(turn.error.kind, turn.error.message);
      return {
        text: turn.text ?? '',
        toolCalls: (turn.toolCalls ?? []).map((c) => ({ id: c.id ?? `toolu_script_${++seq}`, name: c.name, input: c.input })),
      };
    },
  };
}

export interface OpenAIChatModelOptions {
  /** Base URL including the API version path, e.g. http://127.0.0.1:8080/v1. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Per request (default 120 s). */
  timeoutMs?: number;
  /** Cap on the response body (default 4 MiB). */
  maxResponseBytes?: number;
  temperature?: number;
}

const completionSchema = z.object({
  choices: z
    .array(
      z.object({
        finish_reason: z.string().nullable().optional(),
        message: z.object({
          content: z.string().nullable().optional(),
          tool_calls: z
            .array(
              z.object({ id: z.string(), type: z.string().optional(), function: z.object({ name: z.string(), arguments: z.string() }) }),
            )
            .nullable()
            .optional(),
        }),
      }),
    )
    .min(1),
});

function kindForStatus(status: number): ModelErrorKind {
  if (status === 429) return 'rate_limit';
  if (status === 529 || status === 503) return 'overloaded';
  if (status === 401 || status === 403) return 'authentication_failed';
  if (status === 402) return 'billing_error';
  if (status === 404) return 'model_not_found';
  if (status === 400 || status === 413 || status === 422) return 'invalid_request';
  if (status >= 500) return 'server_error';
  return 'unknown';
}

/** Our messages → chat-completions messages (tool calls as function calls with JSON arguments). */
function toWire(messages: readonly Message[]): unknown[] {
  return messages.map((m) => {
    if (m.role === 'assistant' && m.toolCalls?.length) {
      return {
        role: 'assistant',
        content: m.content || null,
        tool_calls: m.toolCalls.map((c) => ({
          id: c.id,
          type: 'function',
          function: { name: c.name, arguments: JSON.stringify(c.input) },
        })),
      };
    }
    if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
    return { role: m.role, content: m.content };
  });
}

function toolSpec(tool: HostTool): unknown {
  let parameters: unknown;
  try {
    parameters = z.toJSONSchema(tool.inputSchema, { unrepresentable: 'any' });
  } catch {
    parameters = { type: 'object' };
  }
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters } };
}

export function openAIChatModel(options: OpenAIChatModelOptions): Model {
  let endpoint: URL;
  try {
    endpoint = new URL('chat/completions', options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
  } catch {
    throw new ModelError('invalid_request', `model base URL ${JSON.stringify(options.baseUrl)} is not a valid URL`);
  }
  const timeoutMs = options.timeoutMs ?? 120_000;
  const limit = options.maxResponseBytes ?? 4 * 1024 * 1024;
  return {
    name: options.model,
    async complete(req) {
      const res = await postCompletion(endpoint, options, req, timeoutMs);
      const text = await readCapped(res.body, limit);
      if (res.statusCode < 200 || res.statusCode >= 300) {
        // The body may carry the provider's message; never the API key (we never echo headers).
        throw new ModelError(kindForStatus(res.statusCode), `model endpoint answered HTTP ${res.statusCode}`, text.slice(0, 500));
      }
      return replyOf(text);
    },
  };
}

async function postCompletion(endpoint: URL, options: OpenAIChatModelOptions, req: ModelRequest, timeoutMs: number) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  const body = {
    model: options.model,
    messages: toWire(req.messages),
    ...(req.tools.length ? { tools: req.tools.map(toolSpec) } : {}),
    ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
  };
  try {
    return await request(endpoint, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: req.signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
  } catch (err) {
    // The caller's abort is its own error; anything else is the endpoint being unreachable.
    if (req.signal.aborted) throw err;
    const e = err as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
    throw new ModelError('unknown', `model endpoint ${endpoint.origin} unreachable: ${e.cause?.code ?? e.code ?? e.message}`);
  }
}

/** The whole body as text, refused (and the stream destroyed) past `limit` bytes. */
async function readCapped(body: Awaited<ReturnType<typeof request>>['body'], limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  body.on('error', () => {});
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      body.destroy();
      throw new ModelError('unknown', `model endpoint response exceeds ${limit} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A 2xx body as the model's reply: JSON, a chat completion, not cut off before any tool call. */
function replyOf(text: string): ModelReply {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ModelError('unknown', 'model endpoint answered with a body that is not JSON');
  }
  const parsed = completionSchema.safeParse(json);
  if (!parsed.success) throw new ModelError('unknown', `model endpoint answer is not a chat completion: ${formatZodIssues(parsed.error)}`);
  const choice = parsed.data.choices[0]!;
  if (choice.finish_reason === 'length' && !choice.message.tool_calls?.length) {
    throw new ModelError('max_output_tokens', 'the model hit its output token limit');
  }
  return { text: choice.message.content ?? '', toolCalls: (choice.message.tool_calls ?? []).map(toolCallOf) };
}

/** Arguments that are not a JSON object reach the tool as `__invalid_arguments__` (its validation reports them). */
function toolCallOf(c: { id?: string | null; function: { name: string; arguments: string } }): ToolCall {
  let input: unknown;
  try {
    input = c.function.arguments.trim() === '' ? {} : JSON.parse(c.function.arguments);
  } catch {
    input = { __invalid_arguments__: c.function.arguments };
  }
  return {
    id: c.id || `call_${randomUUID()}`,
    name: c.function.name,
    input:
      typeof input === 'object' && input !== null && !Array.isArray(input)
        ? (input as Record<string, unknown>)
        : { __invalid_arguments__: c.function.arguments },
  };
}
