/**
 * Flat `{"version": 1, "hooks": {"<event>": [entry]}}` files: Cursor's hooks.json and Copilot
 * CLI's .github/hooks/*.json. Entries carry their own matcher (where the agent has one).
 */
import { z } from 'zod';
import type { CommandHandler, HookHandler, NormalizedHook } from '../../types.js';
import { compileMatcherFor } from '../../matching/modes.js';
import { COPILOT_MATCHER_EVENTS, copilot } from '../../dialects/copilot.js';
import { CURSOR_MATCHER_EVENTS, cursor } from '../../dialects/cursor.js';
import { isObject } from '../../dialects/shared.js';
import type { Dialect } from '../../dialects/types.js';
import type { ParseContext, ParseResult, SerializeResult } from './types.js';
import {
  checkKeys,
  Diags,
  lossLog,
  mappedEvent,
  makeHook,
  reportCommandFieldLosses,
  reportDataLosses,
  sortedJson,
  timeoutOut,
  validate,
  canonicalMatcher,
  targetMatcher,
  type LossLog,
} from './common.js';

export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

interface Top {
  diags: Diags;
  events: Record<string, unknown> | undefined;
  ok: boolean;
}

function readTop(dialect: Dialect, doc: unknown, ctx: ParseContext): Top {
  const diags = new Diags(ctx.file);
  if (!isObject(doc)) {
    diags.error([], 'expected a JSON object');
    return { diags, events: undefined, ok: false };
  }
  checkKeys(doc, ['version', 'hooks', '$schema'], [], diags, 'warning', 'key', dialect.title);
  if (doc.version === undefined) diags.warn(['version'], `missing "version": 1 (${dialect.title} requires it in project hook files)`);
  else if (doc.version !== 1) diags.error(['version'], `expected 1, got ${JSON.stringify(doc.version)}`);
  if (doc.hooks === undefined) return { diags, events: undefined, ok: diags.ok };
  if (!isObject(doc.hooks)) {
    diags.error(['hooks'], `expected an object of events, got ${Array.isArray(doc.hooks) ? 'array' : typeof doc.hooks}`);
    return { diags, events: undefined, ok: false };
  }
  return { diags, events: doc.hooks, ok: diags.ok };
}

// ---------------------------------------------------------------------------------------------
// Cursor

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

function flatMatchers(
  hook: NormalizedHook,
  target: Dialect,
  matcherEvents: ReadonlySet<string>,
  native: string,
  log: LossLog,
): Array<string | undefined> | undefined {
  const shape = canonicalMatcher(hook);
  if (shape.kind === 'all') return [undefined];
  if (!matcherEvents.has(native)) {
    log.field(
      hook,
      `${target.title} has no matcher on ${native}; matcher ${JSON.stringify(hook.matcher)} left out (the hook runs for every ${native})`,
    );
    return [undefined];
  }
  if ((hook.dialect ?? 'claude') === target.name && hook.dialectData?.impliedMatcher === undefined) return [hook.matcher];
  const w = targetMatcher(shape, target, hook.event, hook.dialect);
  if (w.impossible) {
    log.hook(hook, w.loss ?? 'matcher cannot be expressed');
    return undefined;
  }
  if (w.loss) log.field(hook, w.loss);
  if (w.note) log.field(hook, w.note);
  return w.matchers;
}

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
