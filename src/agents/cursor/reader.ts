/** Cursor's .cursor/hooks.json: flat entries (src/agents/shared/flat-reader.ts). */
import { z } from 'zod';
import type { HookHandler, NormalizedHook } from '../../types.js';
import { compileMatcherFor } from '../../matching/modes.js';
import { CURSOR_MATCHER_EVENTS, cursor } from './facts.js';
import type { ParseContext, ParseResult, SerializeResult } from '../types.js';
import { flatMatchers, readTop } from '../shared/flat-reader.js';
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

const cursorEntry = z.looseObject({
  type: z.enum(['command', 'prompt']).optional(),
  command: z.string().optional(),
  prompt: z.string().optional(),
  model: z.string().optional(),
  timeout: z.number().positive().optional(),
  matcher: z.string().optional(),
  failClosed: z.boolean().optional(),
  loop_limit: z.number().int().min(0).nullable().optional(),
});
const CURSOR_KEYS = ['type', 'command', 'prompt', 'model', 'timeout', 'matcher', 'failClosed', 'loop_limit'];

export async function parseCursor(doc: unknown, ctx: ParseContext): Promise<ParseResult> {
  const { diags, events } = readTop(cursor, doc, ctx);
  const hooks: NormalizedHook[] = [];
  for (const [native, rawEntries] of Object.entries(events ?? {})) {
    const mapped = mappedEvent(cursor, native, rawEntries, diags, { agent: 'Cursor', entries: 'hooks' });
    if (!mapped) continue;
    const { mapping, event, entries } = mapped;
    entries.forEach((raw, i) => {
      const p = ['hooks', native, i];
      const e = validate(cursorEntry, raw, p, diags);
      if (!e) return;
      checkKeys(raw, CURSOR_KEYS, p, diags, 'warning', 'field', 'Cursor');
      const type = e.type ?? 'command';
      if (type === 'command' && !e.command?.trim()) {
        diags.error([...p, 'command'], e.command === undefined ? 'missing required field (expected string)' : 'must not be empty');
        return;
      }
      if (type === 'prompt' && !e.prompt?.trim()) {
        diags.error([...p, 'prompt'], e.prompt === undefined ? 'missing required field (expected string)' : 'must not be empty');
        return;
      }
      const data: Record<string, unknown> = { nativeEvent: native };
      let matcher: string | undefined;
      let mode: 'claude' | 'regex' = 'regex';
      if (mapping.tool) {
        matcher = mapping.tool;
        mode = 'claude';
        data.impliedMatcher = mapping.tool;
        if (e.matcher !== undefined) {
          data.matcher = e.matcher;
          diags.warn([...p, 'matcher'], `agent-hooks does not apply matchers on ${native} (the event already names the tool); ignored`);
        }
      } else if (e.matcher !== undefined) {
        if (CURSOR_MATCHER_EVENTS.has(native)) {
          matcher = e.matcher;
          if (compileMatcherFor(matcher, 'regex').kind === 'invalid')
            diags.warn([...p, 'matcher'], `invalid regular expression ${JSON.stringify(matcher)}; it never matches`);
        } else {
          data.matcher = e.matcher;
          diags.warn([...p, 'matcher'], `agent-hooks does not apply matchers on Cursor's ${native}; ignored`);
        }
      }
      if (e.loop_limit !== undefined) {
        data.loop_limit = e.loop_limit;
        diags.warn(
          [...p, 'loop_limit'],
          'loop_limit is not per hook in agent-hooks (agentHooks.stopHookMaxConsecutiveBlocks caps Stop loops); ignored',
        );
      }
      const common = {
        ...(e.timeout !== undefined ? { timeout: e.timeout } : {}),
        // failClosed: a failing or timed-out hook denies instead of letting the action through.
        ...(e.failClosed ? { failureBehavior: 'deny' as const, timeoutBehavior: 'deny' as const } : {}),
      };
      const handler: HookHandler =
        type === 'prompt'
          ? { type: 'prompt', prompt: e.prompt!, ...(e.model ? { model: e.model } : {}), ...common }
          : { type: 'command', command: e.command!, ...common };
      hooks.push(
        makeHook({ dialect: cursor, ctx, event, ...(matcher !== undefined ? { matcher } : {}), matcherMode: mode, handler, path: p, data }),
      );
    });
  }
  const ok = diags.ok;
  return { hooks: ok ? hooks : [], diagnostics: diags.list, ok };
}

/** Canonical event → Cursor's generic event for hooks that did not come from Cursor. */
const CURSOR_GENERIC: Record<string, string> = {
  PreToolUse: 'preToolUse',
  PostToolUse: 'postToolUse',
  PostToolUseFailure: 'postToolUseFailure',
  UserPromptSubmit: 'beforeSubmitPrompt',
  Stop: 'stop',
  SubagentStart: 'subagentStart',
  SubagentStop: 'subagentStop',
  SessionStart: 'sessionStart',
  SessionEnd: 'sessionEnd',
  PreCompact: 'preCompact',
};

export async function serializeCursor(hooks: readonly NormalizedHook[]): Promise<SerializeResult> {
  const log = lossLog();
  const out: Record<string, Array<Record<string, unknown>>> = {};
  for (const hook of hooks) {
    const own = hook.dialect === 'cursor' && typeof hook.dialectData?.nativeEvent === 'string' ? hook.dialectData.nativeEvent : undefined;
    const native = own ?? CURSOR_GENERIC[hook.event];
    if (!native) {
      log.hook(hook, `Cursor has no equivalent of ${hook.event}`);
      continue;
    }
    const type = hook.handler.type;
    if (type !== 'command' && type !== 'prompt') {
      log.hook(hook, `Cursor runs command and prompt hooks, not '${type}'`);
      continue;
    }
    const implied = own !== undefined && hook.dialectData?.impliedMatcher !== undefined;
    const matchers = implied ? [undefined] : flatMatchers(hook, cursor, CURSOR_MATCHER_EVENTS, native, log);
    if (!matchers) continue;
    const h = hook.handler;
    const entry: Record<string, unknown> =
      h.type === 'command' ? { command: h.command } : { type: 'prompt', prompt: (h as { prompt: string }).prompt };
    if (h.type === 'prompt' && (h as { model?: string }).model) entry.model = (h as { model?: string }).model;
    const timeout = timeoutOut(hook, 's');
    if (timeout !== undefined) entry.timeout = timeout;
    const keep = ['command', 'prompt', 'model', 'timeout'];
    const fb = h.failureBehavior;
    const tb = h.timeoutBehavior;
    if (fb === 'deny' && (tb === 'deny' || tb === undefined)) {
      entry.failClosed = true;
      keep.push('failureBehavior', 'timeoutBehavior');
      if (tb === undefined) log.field(hook, 'Cursor failClosed also denies on timeout (timeoutBehavior was unset)');
    }
    reportCommandFieldLosses(hook, keep, log, 'Cursor');
    const data = hook.dialectData ?? {};
    if (hook.dialect === 'cursor') {
      if (data.loop_limit !== undefined) entry.loop_limit = data.loop_limit;
      if (typeof data.matcher === 'string') entry.matcher = data.matcher;
    } else reportDataLosses(hook, [], log, 'Cursor');
    for (const matcher of matchers) {
      out[native] ??= [];
      out[native].push({ ...entry, ...(matcher !== undefined ? { matcher } : {}) });
    }
  }
  return { text: sortedJson({ version: 1, hooks: out }), losses: log.losses };
}

// ---------------------------------------------------------------------------------------------
// Copilot CLI
