/** Engine settings with one real command hook per event, for the plugin tests. */
import { readFileSync } from 'node:fs';
import type { TempDir } from '../helpers/tmp.js';

let files = 0;

/**
 * The hook answers `mode` in Claude's convention and logs each payload it gets to `calls.jsonl`:
 * deny | ask | rewrite | context | replace | block | stop | crash.
 */
const HOOK = `
import { appendFileSync } from 'node:fs';
let input = '';
process.stdin.on('data', (c) => (input += c));
process.stdin.on('end', () => {
  const p = JSON.parse(input);
  appendFileSync(process.argv[3], JSON.stringify(p) + '\\n');
  const ev = p.hook_event_name;
  const hso = (o) => ({ hookSpecificOutput: { hookEventName: ev, ...o } });
  const answers = {
    deny: hso({ permissionDecision: 'deny', permissionDecisionReason: 'DENY-REASON' }),
    ask: hso({ permissionDecision: 'ask', permissionDecisionReason: 'ASK-REASON' }),
    rewrite: hso({ permissionDecision: 'allow', updatedInput: { ...p.tool_input, command: 'echo rewritten' } }),
    context: hso({ additionalContext: 'CTX-' + ev }),
    replace: hso({ updatedToolOutput: 'REPLACED' }),
    block: { decision: 'block', reason: 'BLOCK-REASON' },
    stop: p.stop_hook_active ? {} : { decision: 'block', reason: 'KEEP-GOING' },
  };
  if (process.argv[2] === 'crash') process.exit(3);
  process.stdout.write(JSON.stringify(answers[process.argv[2]] ?? {}));
});
`;

/** Writes the hook and a settings file running it with `mode` on `event` (matcher for tool events); returns the settings path. */
export function settingsWith(dir: TempDir, hooks: Array<{ event: string; mode: string; matcher?: string }>): string {
  const hook = dir.write('hook.mjs', HOOK);
  const log = dir.path('calls.jsonl');
  const byEvent: Record<string, unknown[]> = {};
  for (const h of hooks) {
    byEvent[h.event] ??= [];
    byEvent[h.event]!.push({
      ...(h.matcher ? { matcher: h.matcher } : {}),
      hooks: [{ type: 'command', command: `node ${JSON.stringify(hook)} ${h.mode} ${JSON.stringify(log)}` }],
    });
  }
  return dir.write(`settings-${++files}.json`, JSON.stringify({ hooks: byEvent }));
}

/** The payloads the hook got, in order. */
export function hookCalls(dir: TempDir): Array<Record<string, unknown>> {
  try {
    return readFileSync(dir.path('calls.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  } catch {
    return [];
  }
}
