/**
 * The native side of OpenCode's (and Kilo CLI's) matrix: a minimal plugin, written as an OpenCode
 * user would, that does each scenario's hook itself (throw, mutate `output.args`, set
 * `output.output`, extend or throw on `chat.message`, prompt the idle session). Each hook that
 * acts logs a line to hook-payloads.jsonl, so a run tells "never fired" from "ignored".
 */
import { join } from 'node:path';
import type { RunDirs } from './run.js';
import type { HookSpec } from './scenarios.js';

const TOOLS: Record<string, string[]> = { Bash: ['bash'], Write: ['write'], Edit: ['edit'], MultiEdit: ['edit'], ApplyPatch: ['patch'] };

export function opencodeNativePlugin(dirs: RunDirs, hooks: HookSpec[]): string {
  const spec = hooks.map((h) => ({
    event: h.event,
    mode: h.mode,
    token: h.token,
    tools: h.matcher ? h.matcher.split('|').flatMap((t) => TOOLS[t] ?? []) : null,
  }));
  return `import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
const HOOKS = ${JSON.stringify(spec)};
const LOG = ${JSON.stringify(join(dirs.root, 'hook-payloads.jsonl'))};
const FIRED = ${JSON.stringify(join(dirs.root, 'stop-fired'))};
const log = (h, raw) => appendFileSync(LOG, JSON.stringify({ mode: h.mode, dialect: 'opencode', raw: JSON.stringify(raw) }) + '\\n');
const on = (event, tool) => HOOKS.filter((h) => h.event === event && (!tool || !h.tools || h.tools.includes(tool)));
export const NativeHooks = async ({ client }) => {
  const before = new Map();
  let started = false;
  return {
    'tool.execute.before': async (input, output) => {
      for (const h of on('PreToolUse', input.tool)) {
        log(h, { input, output });
        if (h.mode === 'deny-exit2' || h.mode === 'deny-json' || h.mode === 'ask') throw new Error(h.token);
        if (h.mode === 'env-guard' && JSON.stringify(output.args).includes('.env')) throw new Error(h.token);
        if (h.mode === 'rewrite') output.args.command = 'touch rewritten-marker';
        if (h.mode === 'context') before.set(input.callID, h.token);
      }
    },
    'tool.execute.after': async (input, output) => {
      if (before.has(input.callID)) output.output = output.output + '\\n' + before.get(input.callID);
      for (const h of on('PostToolUse', input.tool)) {
        log(h, { input, output });
        if (h.mode === 'replace-output') output.output = h.token;
        if (h.mode === 'context') output.output = output.output + '\\n' + h.token;
      }
    },
    'chat.message': async (input, output) => {
      const part = output.parts.find((p) => p.type === 'text');
      if (!started) {
        started = true;
        for (const h of on('SessionStart')) {
          log(h, input);
          if (part) part.text = part.text + '\\n\\n' + h.token;
        }
      }
      for (const h of on('UserPromptSubmit')) {
        log(h, input);
        if (h.mode === 'block') throw new Error(h.token);
        if (h.mode === 'context' && part) part.text = part.text + '\\n\\n' + h.token;
      }
    },
    event: async ({ event }) => {
      if (event.type !== 'session.idle') return;
      for (const h of on('Stop')) {
        log(h, event);
        if (h.mode === 'stop-once' && !existsSync(FIRED)) {
          writeFileSync(FIRED, '');
          await client.session.prompt({ path: { id: event.properties.sessionID }, body: { parts: [{ type: 'text', text: h.token }] } });
        }
      }
    },
  };
};
`;
}
