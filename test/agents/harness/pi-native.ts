/**
 * The native side of Pi's matrix: a minimal extension, written as a Pi user would, that does each
 * scenario's hook itself (block, mutate the input, replace or extend the result, transform or
 * handle the prompt, a before_agent_start message, a follow-up message on agent_end). Each
 * handler that acts logs a line to hook-payloads.jsonl, so a run tells "never fired" from "ignored".
 */
import { join } from 'node:path';
import type { RunDirs } from './run.js';
import type { HookSpec } from './scenarios.js';

/** Pi's tool names for a Claude matcher (undefined: every tool). */
const TOOLS: Record<string, string[]> = { Bash: ['bash'], Write: ['write'], Edit: ['edit'], MultiEdit: ['edit'], ApplyPatch: [] };

function piTools(matcher: string | undefined): string[] | null {
  return matcher ? matcher.split('|').flatMap((t) => TOOLS[t] ?? []) : null;
}

export function piNativeExtension(dirs: RunDirs, hooks: HookSpec[]): string {
  const spec = hooks.map((h) => ({ event: h.event, mode: h.mode, token: h.token, tools: piTools(h.matcher) }));
  return `import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
const HOOKS = ${JSON.stringify(spec)};
const LOG = ${JSON.stringify(join(dirs.root, 'hook-payloads.jsonl'))};
const FIRED = ${JSON.stringify(join(dirs.root, 'stop-fired'))};
const log = (h, raw) => appendFileSync(LOG, JSON.stringify({ mode: h.mode, dialect: 'pi', raw: JSON.stringify(raw) }) + '\\n');
const on = (event, tool) => HOOKS.filter((h) => h.event === event && (!tool || !h.tools || h.tools.includes(tool)));
export default function (pi) {
  const before = new Map();
  pi.on('tool_call', async (event, ctx) => {
    for (const h of on('PreToolUse', event.toolName)) {
      log(h, event);
      if (h.mode === 'deny-exit2' || h.mode === 'deny-json') return { block: true, reason: h.token };
      if (h.mode === 'env-guard' && JSON.stringify(event.input).includes('.env')) return { block: true, reason: h.token };
      if (h.mode === 'ask') {
        if (!ctx.hasUI || !(await ctx.ui.confirm('approve?', h.token))) return { block: true, reason: h.token };
      }
      if (h.mode === 'rewrite') event.input.command = 'touch rewritten-marker';
      if (h.mode === 'context') before.set(event.toolCallId, h.token);
    }
  });
  pi.on('tool_result', async (event) => {
    let content = event.content;
    const ctx = before.get(event.toolCallId);
    if (ctx) content = [...content, { type: 'text', text: ctx }];
    for (const h of on('PostToolUse', event.toolName)) {
      log(h, event);
      if (h.mode === 'replace-output') content = [{ type: 'text', text: h.token }];
      if (h.mode === 'context') content = [...content, { type: 'text', text: h.token }];
    }
    return content === event.content ? undefined : { content };
  });
  pi.on('input', async (event) => {
    for (const h of on('UserPromptSubmit')) {
      log(h, event);
      if (h.mode === 'block') return { action: 'handled' };
      if (h.mode === 'context') return { action: 'transform', text: event.text + '\\n\\n' + h.token };
    }
  });
  let session = on('SessionStart');
  pi.on('before_agent_start', async (event) => {
    const h = session[0];
    session = [];
    if (!h) return;
    log(h, event);
    return { message: { customType: 'native-hook', content: h.token, display: false } };
  });
  pi.on('agent_end', async (event) => {
    for (const h of on('Stop')) {
      log(h, {});
      if (h.mode === 'stop-once' && !existsSync(FIRED)) {
        writeFileSync(FIRED, '');
        pi.sendUserMessage(h.token, { deliverAs: 'followUp' });
      }
    }
  });
}
`;
}
