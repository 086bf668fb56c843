/** Copilot CLI's .github/hooks/*.json: flat entries (src/agents/shared/flat-reader.ts). */
import { z } from 'zod';
import type { CommandHandler, NormalizedHook } from '../../types.js';
import { compileMatcherFor } from '../../matching/modes.js';
import { COPILOT_MATCHER_EVENTS, copilot } from './facts.js';
import type { ParseContext, ParseResult, SerializeResult } from '../types.js';
import { isObject } from '../shared/facts.js';
import { flatMatchers, readTop, shellQuote } from '../shared/flat-reader.js';
import {
  checkKeys,
  lossLog,
  mappedEvent,
  makeHook,
  reportCommandFieldLosses,
  reportDataLosses,
  sortedJson,
  timeoutOut,
  validate,
} from '../shared/reader.js';

const copilotCommand = z.looseObject({
  type: z.literal('command'),
  bash: z.string().optional(),
  powershell: z.string().optional(),
  cwd: z.string().optional(),
  env: z.record(z.string(), z.string()).optional(),
  timeoutSec: z.number().positive().optional(),
  matcher: z.string().optional(),
});
const COPILOT_KEYS = ['type', 'bash', 'powershell', 'cwd', 'env', 'timeoutSec', 'matcher'];

export async function parseCopilot(doc: unknown, ctx: ParseContext): Promise<ParseResult> {
  const { diags, events } = readTop(copilot, doc, ctx);
  const hooks: NormalizedHook[] = [];
  for (const [native, rawEntries] of Object.entries(events ?? {})) {
    const mapped = mappedEvent(copilot, native, rawEntries, diags, { agent: 'Copilot', entries: 'hooks' });
    if (!mapped) continue;
    const { event, entries } = mapped;
    entries.forEach((raw, i) => {
      const p = ['hooks', native, i];
      if (isObject(raw) && raw.type === 'prompt') {
        diags.warn([...p, 'type'], 'Copilot prompt hooks submit text as the user at session start; agent-hooks has no equivalent; skipped');
        return;
      }
      const e = validate(copilotCommand, raw, p, diags);
      if (!e) return;
      checkKeys(raw, COPILOT_KEYS, p, diags, 'warning', 'field', 'Copilot CLI');
      const script = e.bash ?? e.powershell;
      if (!script?.trim()) {
        diags.error(p, 'needs a non-empty "bash" or "powershell" command');
        return;
      }
      const data: Record<string, unknown> = { nativeEvent: native };
      if (e.timeoutSec === undefined) data.timeoutDefaulted = true;
      if (e.powershell !== undefined && e.bash !== undefined) data.powershell = e.powershell;
      let command = script;
      if (e.cwd !== undefined) {
        // Copilot runs the command in `cwd` (relative to the repository root); so does the engine, via cd.
        data.cwd = e.cwd;
        data.script = script;
        command = `cd ${shellQuote(e.cwd)} && ${script}`;
      }
      let matcher: string | undefined;
      if (e.matcher !== undefined) {
        if (COPILOT_MATCHER_EVENTS.has(native)) {
          matcher = e.matcher;
          if (compileMatcherFor(matcher, 'regex-anchored').kind === 'invalid')
            diags.warn([...p, 'matcher'], `invalid regular expression ${JSON.stringify(matcher)}; it never matches`);
        } else {
          data.matcher = e.matcher;
          diags.warn([...p, 'matcher'], `Copilot CLI documents no matcher on ${native}; ignored`);
        }
      }
      const handler: CommandHandler = {
        type: 'command',
        command,
        timeout: e.timeoutSec ?? copilot.defaults.timeoutSec!,
        ...(e.bash === undefined ? { shell: 'powershell' as const } : {}),
        ...(e.env ? { env: e.env } : {}),
      };
      hooks.push(
        makeHook({
          dialect: copilot,
          ctx,
          event,
          ...(matcher !== undefined ? { matcher } : {}),
          matcherMode: 'regex-anchored',
          handler,
          path: p,
          data,
        }),
      );
    });
  }
  const ok = diags.ok;
  return { hooks: ok ? hooks : [], diagnostics: diags.list, ok };
}

const COPILOT_GENERIC: Record<string, string> = {
  SessionStart: 'sessionStart',
  SessionEnd: 'sessionEnd',
  UserPromptSubmit: 'userPromptSubmitted',
  PreToolUse: 'preToolUse',
  PostToolUse: 'postToolUse',
  PostToolUseFailure: 'postToolUseFailure',
  Stop: 'agentStop',
  SubagentStart: 'subagentStart',
  SubagentStop: 'subagentStop',
  PermissionRequest: 'permissionRequest',
  PreCompact: 'preCompact',
  Notification: 'notification',
};

export async function serializeCopilot(hooks: readonly NormalizedHook[]): Promise<SerializeResult> {
  const log = lossLog();
  const out: Record<string, Array<Record<string, unknown>>> = {};
  for (const hook of hooks) {
    const own = hook.dialect === 'copilot' && typeof hook.dialectData?.nativeEvent === 'string' ? hook.dialectData.nativeEvent : undefined;
    const native = own ?? COPILOT_GENERIC[hook.event];
    if (!native) {
      log.hook(hook, `Copilot CLI has no equivalent of ${hook.event}`);
      continue;
    }
    if (hook.handler.type !== 'command') {
      log.hook(hook, `Copilot CLI runs only command hooks here, not '${hook.handler.type}'`);
      continue;
    }
    const matchers = flatMatchers(hook, copilot, COPILOT_MATCHER_EVENTS, native, log);
    if (!matchers) continue;
    const h = hook.handler;
    const data = hook.dialect === 'copilot' ? (hook.dialectData ?? {}) : {};
    const entry: Record<string, unknown> = { type: 'command' };
    const script =
      typeof data.cwd === 'string' && typeof data.script === 'string' && h.command === `cd ${shellQuote(data.cwd)} && ${data.script}`
        ? data.script
        : h.command;
    if (h.shell === 'powershell') entry.powershell = script;
    else {
      entry.bash = script;
      if (typeof data.powershell === 'string') entry.powershell = data.powershell;
    }
    if (script !== h.command) entry.cwd = data.cwd;
    if (h.env) entry.env = h.env;
    const timeout = timeoutOut(hook, 's');
    if (timeout !== undefined) entry.timeoutSec = timeout;
    reportCommandFieldLosses(
      hook,
      ['command', 'timeout', 'env', ...(h.shell === 'powershell' || h.shell === 'bash' ? ['shell'] : [])],
      log,
      'Copilot CLI',
    );
    if (hook.dialect !== 'copilot') reportDataLosses(hook, [], log, 'Copilot CLI');
    else if (typeof data.matcher === 'string') entry.matcher = data.matcher;
    for (const matcher of matchers) {
      out[native] ??= [];
      out[native].push({ ...entry, ...(matcher !== undefined ? { matcher } : {}) });
    }
  }
  return { text: sortedJson({ version: 1, hooks: out }), losses: log.losses };
}
