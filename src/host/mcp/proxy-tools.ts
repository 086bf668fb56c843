/**
 * tools/call through the proxy: PreToolUse (and PermissionRequest, then the user, on ask) before
 * the server sees a call; PostToolUse or PostToolUseFailure on its result.
 */
import { randomUUID } from 'node:crypto';
import { nowMs } from '../../util/clock.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Decision } from '../../reduce/reduce.js';
import {
  fire,
  isObject,
  key,
  loadSdk,
  requestClient,
  toClient,
  toServer,
  type Id,
  type Msg,
  type PendingCall,
  type ProxyState,
} from './proxy-state.js';
import { mcpToolName, toolErrorText } from './tools.js';

const errorResult = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

async function validateRewrite(s: ProxyState, tool: string, input: Record<string, unknown>): Promise<string | undefined> {
  const schema = s.inputSchemas.get(tool);
  if (!schema) return undefined; // never listed: the server validates
  let validate = s.validators.get(tool);
  if (!validate) {
    const sdk = await loadSdk();
    s.ajv ??= new sdk.Ajv();
    try {
      validate = s.ajv.getValidator(schema) as (v: unknown) => { valid: boolean; errorMessage?: string };
    } catch (err) {
      s.log(`the inputSchema of ${tool} cannot be compiled (${(err as Error).message}); rewrites of it are not re-validated`);
      return undefined;
    }
    s.validators.set(tool, validate);
  }
  const r = validate(input);
  return r.valid ? undefined : (r.errorMessage ?? 'does not match the inputSchema');
}

export async function onToolCall(s: ProxyState, msg: Msg & { id: Id }) {
  if (!s.hooks) return void toServer(s, msg);
  const params = isObject(msg.params) ? msg.params : {};
  const tool = params.name;
  if (typeof tool !== 'string' || (params.arguments !== undefined && !isObject(params.arguments))) {
    // A call the hooks cannot read never reaches the server (it could not be judged).
    const message = 'Invalid tools/call params: "name" must be a string and "arguments" an object';
    s.log(`refused a malformed tools/call: ${message}`);
    return void toClient(s, { jsonrpc: '2.0', id: msg.id, error: { code: -32602, message } });
  }
  const call: PendingCall = {
    id: msg.id,
    toolName: mcpToolName(s.name, tool),
    input: (params.arguments as Record<string, unknown> | undefined) ?? {},
    toolUseId: `mcp-proxy-${randomUUID()}`,
    abort: new AbortController(),
    forwarded: false,
    startedAt: 0,
    context: [],
  };
  s.calls.set(key(msg.id), call);
  const deny = (text: string) => {
    s.calls.delete(key(msg.id));
    s.log(`${call.toolName}: denied: ${text}`);
    void toClient(s, { jsonrpc: '2.0', id: msg.id, result: errorResult(text) });
  };
  const signal = call.abort.signal;
  const gone = () => signal.aborted || s.calls.get(key(msg.id)) !== call;

  const pre = await fire(s, 'PreToolUse', { tool_name: call.toolName, tool_input: call.input, tool_use_id: call.toolUseId }, signal);
  if (gone()) return;
  if ('error' in pre) return deny(`PreToolUse hooks could not run: ${pre.error}`);
  call.context.push(...pre.additionalContext);
  if (!pre.continue) return deny(pre.stopReason ?? 'a PreToolUse hook stopped the agent');
  if (pre.decision === 'deny') return deny(pre.reason ?? 'denied by a PreToolUse hook');
  if (pre.decision === 'defer') return deny('a PreToolUse hook deferred this call; the proxy cannot resume calls later');
  let input = pre.updatedInput ?? call.input;
  let rewritten = pre.updatedInput !== undefined;

  if (pre.decision === 'ask') {
    const asked = await askPermission(s, call, pre, input, signal);
    if (gone()) return;
    if ('deny' in asked) return deny(asked.deny);
    if (asked.input) {
      input = asked.input;
      rewritten = true;
    }
  }

  if (rewritten) {
    const problem = await validateRewrite(s, tool, input);
    if (gone()) return;
    if (problem) return deny(`a hook rewrote the input of ${call.toolName} invalidly: ${problem}`);
    s.log(`${call.toolName}: input rewritten by a hook`);
  }
  call.input = input;
  call.forwarded = true;
  call.startedAt = nowMs();
  void toServer(s, rewritten ? { ...msg, params: { ...params, arguments: input } } : msg);
}

/**
 * A PreToolUse `ask`: PermissionRequest hooks while the decision is still ask (as Claude Code),
 * then the user through the client's elicitation support; without it, denied.
 */
async function askPermission(
  s: ProxyState,
  call: PendingCall,
  pre: Decision,
  input: Record<string, unknown>,
  signal: AbortSignal,
): Promise<{ deny: string } | { input?: Record<string, unknown> }> {
  const pr = await fire(s, 'PermissionRequest', { tool_name: call.toolName, tool_input: input, permission_suggestions: [] }, signal);
  if ('error' in pr) return { deny: `PermissionRequest hooks could not run: ${pr.error}` };
  if (pr.decision === 'deny') return { deny: pr.reason ?? 'denied by a PermissionRequest hook' };
  if (pr.decision === 'allow') return pr.updatedInput ? { input: pr.updatedInput } : {};
  if (!s.clientElicitation.form) {
    return {
      deny: `a hook asked for confirmation${pre.reason ? ` (${pre.reason})` : ''}, and this MCP client cannot ask its user (it does not support elicitation): denied`,
    };
  }
  let answer: Record<string, unknown>;
  try {
    answer = await requestClient(
      s,
      'elicitation/create',
      {
        mode: 'form',
        message: `Allow ${call.toolName}?${pre.reason ? `\n${pre.reason}` : ''}\nInput: ${JSON.stringify(input)}`,
        requestedSchema: { type: 'object', properties: {} },
      },
      signal,
    );
  } catch (err) {
    return { deny: `asking the user failed: ${(err as Error).message}` };
  }
  if (answer.action !== 'accept') return { deny: `the user did not allow the call (${String(answer.action)})` };
  return {};
}

export async function onToolResult(s: ProxyState, call: PendingCall, msg: Msg) {
  const duration_ms = Math.round(nowMs() - call.startedAt);
  const base = { tool_name: call.toolName, tool_input: call.input, tool_use_id: call.toolUseId, duration_ms };
  const signal = new AbortController().signal;
  if (isObject(msg.error)) {
    // The SDK's servers prefix "MCP error -32603: "; the code means nothing to a hook author.
    const error = String(msg.error.message ?? 'error').replace(/^(?:MCP error -?\d+: )+/, '');
    const d = await fire(s, 'PostToolUseFailure', { ...base, error, is_interrupt: false }, signal);
    const lost = [...call.context, ...('error' in d ? [] : d.additionalContext)];
    if (lost.length)
      s.log(`${call.toolName}: the server answered with a protocol error; additionalContext cannot be attached: ${lost.join(' | ')}`);
    void toClient(s, msg);
    return;
  }
  const result = msg.result as CallToolResult & { task?: unknown };
  if (!isObject(result) || result.task !== undefined || !Array.isArray(result.content)) {
    void toClient(s, msg); // not a tool result (a task handle): nothing to hook
    return;
  }
  let out: CallToolResult = result;
  const texts = [...call.context];
  if (result.isError) {
    const d = await fire(
      s,
      'PostToolUseFailure',
      { ...base, error: toolErrorText(result) || JSON.stringify(result.content), is_interrupt: false },
      signal,
    );
    if ('error' in d) s.log(`PostToolUseFailure hooks could not run: ${d.error}`);
    else texts.push(...d.additionalContext);
  } else {
    const d = await fire(s, 'PostToolUse', { ...base, tool_response: result }, signal);
    if ('error' in d) s.log(`PostToolUse hooks could not run: ${d.error}`);
    else {
      if (d.updatedOutput !== undefined) {
        const replaced = await replacementResult(d.updatedOutput);
        if (replaced.ok) {
          out = replaced.result;
          s.log(`${call.toolName}: output replaced by a PostToolUse hook`);
        } else s.log(`${call.toolName}: updatedMCPToolOutput ignored, it is not a tool result: ${replaced.error}`);
      }
      texts.push(...d.additionalContext);
      if (d.decision === 'block' && d.reason) texts.push(d.reason);
      if (!d.continue) {
        out = { ...out, isError: true };
        texts.push(d.stopReason ?? 'a PostToolUse hook stopped the agent');
      }
    }
  }
  if (texts.length) out = { ...out, content: [...out.content, ...texts.map((text) => ({ type: 'text' as const, text }))] };
  void toClient(s, { ...msg, result: out });
}

/**
 * updatedMCPToolOutput → a CallToolResult: a result object (content/structuredContent) as is, an
 * array as its content blocks, a string as one text block, any other value as its JSON text.
 */
async function replacementResult(value: unknown): Promise<{ ok: true; result: CallToolResult } | { ok: false; error: string }> {
  const { types } = await loadSdk();
  let candidate: unknown;
  if (typeof value === 'string') candidate = { content: [{ type: 'text', text: value }] };
  else if (Array.isArray(value)) candidate = { content: value };
  else if (isObject(value) && ('content' in value || 'structuredContent' in value)) candidate = value;
  else candidate = { content: [{ type: 'text', text: JSON.stringify(value) }] };
  const r = types.CallToolResultSchema.safeParse(candidate);
  if (!r.success) return { ok: false, error: r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ') };
  return { ok: true, result: { ...(candidate as CallToolResult), content: r.data.content } };
}
