/** How MCP failures read in hook errors and warnings. */
import type { ProcessGroupStdioTransport } from '../backends/stdio-transport.js';

/** "exited with code 3; stderr: …", "was killed by SIGKILL", "closed its connection", … */
export function describeExit(t: ProcessGroupStdioTransport): string {
  const e = t.exit;
  const how = t.dropReason
    ? `${t.dropReason}; its connection was dropped`
    : !e
      ? 'closed its connection'
      : e.signal
        ? `was killed by ${e.signal}`
        : `exited with code ${e.code}`;
  const tail = lastLines(t.stderrTail);
  return tail ? `${how}; stderr: ${tail}` : how;
}

/** An error's message without the SDK's "MCP error -32602: " prefix(es): the code means nothing to a hook author. */
export function errorMessage(err: unknown): string {
  const m = err instanceof Error ? err.message : String(err);
  return m.replace(/^(?:MCP error -?\d+: )+/, '');
}

function lastLines(text: string): string {
  const lines = text.trim().split('\n').slice(-3).join(' | ');
  return lines.length > 500 ? `…${lines.slice(-500)}` : lines;
}
