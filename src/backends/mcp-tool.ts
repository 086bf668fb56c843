/**
 * mcp_tool backend: call a tool of an MCP server and normalize the answer like a command
 * hook's exit 0 — the tool's text content is the hook's stdout, parsed by the same rule
 * (one JSON object = hook output, anything else = plain text).
 *
 * - text content blocks are joined with "\n"; with no text block, `structuredContent` (if any)
 *   is the stdout as JSON text; images, audio and resources are ignored;
 * - `isError: true`, an unknown server or tool, a server that cannot start or crashes:
 *   status 'error' (a non-blocking error; the hook's failureBehavior applies);
 * - no answer within the hook's timeout: status 'timeout' (timeoutBehavior applies);
 * - `input` gets `${path}` substitution from the hook's JSON input (see mcp/substitute.ts),
 *   bounded by the same cap as a command hook's stdin.
 */
import { makeResult } from './result.js';
import { nowMs } from '../util/clock.js';
import type { Backend } from './types.js';
import type { McpClientManager } from '../mcp/manager.js';
import { substituteInput } from '../mcp/substitute.js';
import type { ExecutionResult, McpToolHandler } from '../types.js';
import { encodeHookPayload } from './payload.js';

export function mcpToolBackend(manager: McpClientManager): Backend {
  return async (hook, payload, ctx) => {
    const started = nowMs();
    const handler = hook.handler as McpToolHandler;
    const base = { stdinTruncated: false };
    const result = (r: Partial<ExecutionResult> & Pick<ExecutionResult, 'status'>): ExecutionResult =>
      makeResult({ stdinTruncated: base.stdinTruncated, ...r }, started);

    let args = substituteInput(handler.input ?? {}, payload);
    // The arguments are the handler's own fields: none is known to be unjudged, so none is shortened.
    const encoded = encodeHookPayload(args, ctx.stdinLimitBytes, new Set());
    if (encoded.refused !== undefined) return result({ status: 'error', error: encoded.refused, engineFault: true });
    if (encoded.truncated) {
      args = JSON.parse(encoded.text) as Record<string, unknown>;
      base.stdinTruncated = true;
    }

    const outcome = await manager.callTool(handler.server, handler.tool, args, { timeoutMs: ctx.timeoutMs, signal: ctx.signal });
    if (!outcome.ok) {
      const status = outcome.failure === 'timeout' ? 'timeout' : outcome.failure === 'aborted' ? 'aborted' : 'error';
      return result({ status, error: outcome.message });
    }

    const { content, structuredContent, isError } = outcome.result;
    const texts = (Array.isArray(content) ? content : []).flatMap((c) =>
      c && c.type === 'text' && typeof c.text === 'string' ? [c.text] : [],
    );
    let text = texts.join('\n');
    if (texts.length === 0 && structuredContent !== undefined) text = JSON.stringify(structuredContent);
    const capped = capBytes(text, ctx.outputLimitBytes);

    if (isError === true) {
      const detail = firstLine(capped.text);
      return result({
        status: 'error',
        stderr: capped.text,
        stderrTruncated: capped.truncated,
        error: `MCP tool "${handler.tool}" on server "${handler.server}" returned an error${detail ? `: ${detail}` : ''}`,
      });
    }
    return result({ status: 'completed', exitCode: 0, stdout: capped.text, stdoutTruncated: capped.truncated });
  };
}

/** At most `limit` UTF-8 bytes, never splitting a character. */
function capBytes(text: string, limit: number): { text: string; truncated: boolean } {
  if (text.length <= limit / 4 || Buffer.byteLength(text, 'utf8') <= limit) return { text, truncated: false };
  const bytes = Buffer.from(text, 'utf8');
  let end = limit;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--; // back off a continuation byte
  return { text: bytes.subarray(0, end).toString('utf8'), truncated: true };
}

function firstLine(text: string): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.length > 500 ? `${line.slice(0, 500)}…` : line;
}
