// Scripted fake model servers for the agents suite, one per wire API an agent speaks.
// Plain JavaScript (no build step): ns-run.mjs starts it inside the loopback-only namespace.
//
// Stateless per request, so a retrying agent cannot loop: the answer depends only on the
// request body. While the history holds fewer tool results than the script has tool calls,
// and the request offers tools at all (side requests such as title generation offer none),
// the next scripted tool call is answered; otherwise the final text. Every request body is
// appended to the log as one JSON line, so a test can see what reached the model.
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';

/** @typedef {{ name: string, input: Record<string, unknown>, custom?: boolean }} ToolCall */
/** @typedef {{ toolCalls: ToolCall[], finalText?: string }} Script */

const FINAL = 'done';

// ---- Anthropic Messages (Claude Code) -------------------------------------------------------

function anthropicToolResults(body) {
  let n = 0;
  for (const m of body.messages ?? []) {
    if (Array.isArray(m.content)) for (const c of m.content) if (c?.type === 'tool_result') n++;
  }
  return n;
}

function anthropic(body, script) {
  const k = anthropicToolResults(body);
  const hasTools = Array.isArray(body.tools) && body.tools.length > 0;
  const call = hasTools ? script.toolCalls[k] : undefined;
  const model = body.model ?? 'fake';
  const id = `msg_${Date.now()}`;
  const block = call
    ? { type: 'tool_use', id: `toolu_fake_${k}`, name: call.name, input: call.input }
    : { type: 'text', text: script.finalText ?? FINAL };
  const stopReason = call ? 'tool_use' : 'end_turn';
  const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  if (!body.stream) {
    return {
      json: { id, type: 'message', role: 'assistant', model, content: [block], stop_reason: stopReason, stop_sequence: null, usage },
    };
  }
  const events = [
    [
      'message_start',
      {
        type: 'message_start',
        message: {
          id,
          type: 'message',
          role: 'assistant',
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...usage, output_tokens: 1 },
        },
      },
    ],
  ];
  if (call) {
    events.push([
      'content_block_start',
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: block.id, name: call.name, input: {} } },
    ]);
    events.push([
      'content_block_delta',
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(call.input) } },
    ]);
  } else {
    events.push(['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }]);
    events.push(['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: block.text } }]);
  }
  events.push(['content_block_stop', { type: 'content_block_stop', index: 0 }]);
  events.push([
    'message_delta',
    { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } },
  ]);
  events.push(['message_stop', { type: 'message_stop' }]);
  return { sse: events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`) };
}

// ---- Gemini generateContent / streamGenerateContent (Gemini CLI) ----------------------------

function gemini(body, script, path) {
  if (path.includes(':countTokens')) return { json: { totalTokens: 10 } };
  let k = 0;
  for (const c of body.contents ?? []) for (const p of c.parts ?? []) if (p?.functionResponse) k++;
  const hasTools = Array.isArray(body.tools) && body.tools.some((t) => (t.functionDeclarations ?? []).length > 0);
  const call = hasTools ? script.toolCalls[k] : undefined;
  const wantsJson = body.generationConfig?.responseMimeType === 'application/json';
  const part = call
    ? { functionCall: { name: call.name, args: call.input } }
    : { text: wantsJson ? '{"next_speaker":"user","reasoning":"done"}' : (script.finalText ?? FINAL) };
  const response = {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: 'fake',
  };
  if (path.includes(':streamGenerateContent')) return { sse: [`data: ${JSON.stringify(response)}\n\n`] };
  return { json: response };
}

// ---- OpenAI Responses (Codex) ---------------------------------------------------------------

function responses(body, script) {
  let k = 0;
  for (const item of body.input ?? []) {
    if (item?.type === 'function_call_output' || item?.type === 'custom_tool_call_output') k++;
  }
  const hasTools = Array.isArray(body.tools) && body.tools.length > 0;
  const call = hasTools ? script.toolCalls[k] : undefined;
  const id = `resp_${Date.now()}`;
  const item = call
    ? call.custom
      ? {
          type: 'custom_tool_call',
          id: `ctc_${k}`,
          status: 'completed',
          call_id: `call_fake_${k}`,
          name: call.name,
          input: String(call.input.input ?? ''),
        }
      : {
          type: 'function_call',
          id: `fc_${k}`,
          status: 'completed',
          call_id: `call_fake_${k}`,
          name: call.name,
          arguments: JSON.stringify(call.input),
        }
    : {
        type: 'message',
        id: `msg_${k}`,
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: script.finalText ?? FINAL, annotations: [] }],
      };
  const usage = {
    input_tokens: 10,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 5,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 15,
  };
  const events = [
    ['response.created', { type: 'response.created', response: { id, object: 'response', status: 'in_progress', output: [] } }],
    ['response.output_item.added', { type: 'response.output_item.added', output_index: 0, item }],
  ];
  if (!call)
    events.push([
      'response.output_text.delta',
      { type: 'response.output_text.delta', item_id: item.id, output_index: 0, content_index: 0, delta: item.content[0].text },
    ]);
  events.push(['response.output_item.done', { type: 'response.output_item.done', output_index: 0, item }]);
  events.push([
    'response.completed',
    { type: 'response.completed', response: { id, object: 'response', status: 'completed', output: [item], usage } },
  ]);
  return { sse: events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`) };
}

// ---- OpenAI Chat Completions (Qwen Code, Copilot CLI, Factory Droid) ------------------------

function chat(body, script) {
  let k = 0;
  for (const m of body.messages ?? []) if (m?.role === 'tool') k++;
  const hasTools = Array.isArray(body.tools) && body.tools.length > 0;
  const call = hasTools ? script.toolCalls[k] : undefined;
  const id = `chatcmpl-${Date.now()}`;
  const created = Math.floor(Date.now() / 1000);
  const model = body.model ?? 'fake';
  const toolCall = call && {
    index: 0,
    id: `call_fake_${k}`,
    type: 'function',
    function: { name: call.name, arguments: JSON.stringify(call.input) },
  };
  const text = script.finalText ?? FINAL;
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  if (!body.stream) {
    const message = call ? { role: 'assistant', content: null, tool_calls: [toolCall] } : { role: 'assistant', content: text };
    return {
      json: {
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [{ index: 0, message, finish_reason: call ? 'tool_calls' : 'stop' }],
        usage,
      },
    };
  }
  const chunk = (delta, finish) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const chunks = call
    ? [chunk({ role: 'assistant', content: null, tool_calls: [toolCall] }, null), chunk({}, 'tool_calls')]
    : [chunk({ role: 'assistant', content: text }, null), chunk({}, 'stop')];
  chunks.push({ ...chunk({}, null), choices: [], usage });
  return { sse: [...chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`), 'data: [DONE]\n\n'] };
}

// ---- Augment's backend (Auggie) ----------------------------------------------------------------
// Auggie has no model setting: its session's tenant URL is its API. The fake answers the calls
// `auggie --print` makes: /get-models (with the enable_hooks flag, without which no hook runs),
// /chat-stream (newline-delimited JSON; a tool call is a response node of type 5), and `{}` for
// the rest (remote tools, MCP configs, error reports).

function augmentToolResults(body) {
  const text = JSON.stringify(body);
  return (text.match(/"tool_result_node":\{/g) ?? []).length;
}

function augment(body, script, path) {
  if (path.startsWith('/get-models'))
    return {
      json: {
        default_model: 'fake-model',
        models: [{ name: 'fake-model', suggested_prefix_char_count: 0, suggested_suffix_char_count: 0 }],
        languages: [],
        feature_flags: { enable_hooks: true },
      },
    };
  if (path.startsWith('/agents/list-remote-tools')) return { json: { tools: [] } };
  if (!path.startsWith('/chat-stream')) return { json: {} };
  const k = augmentToolResults(body);
  const hasTools = Array.isArray(body.tool_definitions) && body.tool_definitions.length > 0;
  const call = hasTools ? script.toolCalls[k] : undefined;
  const lines = call
    ? [
        {
          text: '',
          nodes: [
            {
              id: 1,
              type: 5,
              content: '',
              tool_use: { tool_use_id: `toolu_fake_${k}`, tool_name: call.name, input_json: JSON.stringify(call.input) },
            },
          ],
        },
        { text: '', stop_reason: 3 },
      ]
    : [{ text: script.finalText ?? FINAL }, { text: '', stop_reason: 1 }];
  return { sse: lines.map((l) => `${JSON.stringify(l)}\n`) };
}

// ---- server ---------------------------------------------------------------------------------

const HANDLERS = { anthropic, gemini, responses, chat, augment };

/** Answers a GET (model lists, health checks) with an empty but well-formed listing. */
function listing(api) {
  if (api === 'gemini') return { models: [] };
  if (api === 'anthropic') return { data: [], has_more: false };
  return { object: 'list', data: [{ id: 'fake-model', object: 'model', created: 0, owned_by: 'fake' }] };
}

/**
 * Starts the fake server for `api` on 127.0.0.1:`port`; resolves to the http.Server.
 * @param {{ api: keyof typeof HANDLERS, script: Script, logFile: string, port: number }} opts
 */
export function startFakeModel({ api, script, logFile, port }) {
  const handle = HANDLERS[api];
  if (!handle) throw new Error(`fake-model: unknown api ${api}`);
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body = {};
      try {
        body = raw ? JSON.parse(raw) : {};
      } catch {
        body = { unparsed: raw };
      }
      appendFileSync(logFile, `${JSON.stringify({ method: req.method, path: req.url, body })}\n`);
      if (req.method !== 'POST') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(listing(api)));
        return;
      }
      const answer = handle(body, script, req.url ?? '');
      if (answer.json) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.json));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      for (const s of answer.sse) res.write(s);
      res.end();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
