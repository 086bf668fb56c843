/**
 * Gemini CLI and Qwen Code settings.json `hooks`: Claude-shaped groups with `sequential`,
 * millisecond command timeouts, `name`/`description` on handlers. Qwen adds http and prompt
 * handlers, timeouts in seconds for every type (0.24; ≥ 1000 = legacy ms), `async`, `shell`, `args`, `if`, and `disableAllHooks`.
 */
import { z } from 'zod';
import type { CommandHandler, HookHandler, NormalizedHook } from '../../types.js';
import { compileMatcherFor } from '../../matching/modes.js';
import { isObject } from '../../dialects/shared.js';
import type { Dialect } from '../../dialects/types.js';
import type { ParseContext, ParseResult, SerializeResult } from './types.js';
import { buildGroups, matchersFor, type GroupEntry } from './claude.js';
import {
  checkKeys,
  Diags,
  eventSpec,
  lossLog,
  mappedEvent,
  makeHook,
  reportCommandFieldLosses,
  reportDataLosses,
  sortedJson,
  timeoutOut,
  validate,
} from './common.js';

const GEMINI_HOOKS_FIELDS = ['enabled', 'disabled', 'notifications'];

const commandSchema = z.looseObject({
  type: z.literal('command'),
  command: z.string().min(1),
  name: z.string().optional(),
  description: z.string().optional(),
  timeout: z.number().positive().optional(),
  env: z.record(z.string(), z.string()).optional(),
  // Qwen
  args: z.array(z.string()).optional(),
  async: z.boolean().optional(),
  shell: z.enum(['bash', 'powershell']).optional(),
  statusMessage: z.string().optional(),
  if: z.string().optional(),
});
const httpSchema = z.looseObject({
  type: z.literal('http'),
  url: z.string().min(1),
  headers: z.record(z.string(), z.string()).optional(),
  allowedEnvVars: z.array(z.string()).optional(),
  timeout: z.number().positive().optional(),
  name: z.string().optional(),
  statusMessage: z.string().optional(),
  once: z.boolean().optional(),
  if: z.string().optional(),
});
const promptSchema = z.looseObject({
  type: z.literal('prompt'),
  prompt: z.string().min(1),
  model: z.string().optional(),
  timeout: z.number().positive().optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  statusMessage: z.string().optional(),
  if: z.string().optional(),
});
const groupSchema = z.looseObject({
  matcher: z.string().optional(),
  sequential: z.boolean().optional(),
  async: z.boolean().optional(),
  hooks: z.array(z.unknown()),
});

const KEYS = {
  gemini: { group: ['matcher', 'sequential', 'hooks'], command: ['type', 'command', 'name', 'description', 'timeout', 'env'] },
  qwen: {
    group: ['matcher', 'sequential', 'async', 'hooks'],
    command: ['type', 'command', 'args', 'name', 'description', 'timeout', 'async', 'env', 'shell', 'statusMessage', 'if'],
    http: ['type', 'url', 'headers', 'allowedEnvVars', 'timeout', 'name', 'statusMessage', 'once', 'if'],
    prompt: ['type', 'prompt', 'model', 'timeout', 'name', 'description', 'statusMessage', 'if'],
  },
} as const;

/**
 * Qwen Code 0.24 reads every hook timeout in seconds; a value of 1000 or more is taken as the
 * legacy milliseconds of older Qwen settings (timeout: 30000 = 30 s).
 */
export function qwenSeconds(value: number): number {
  return value >= 1000 ? value / 1000 : value;
}

/** Qwen's non-command timeouts have their own defaults. */
const QWEN_SECONDS_DEFAULT: Record<string, number> = { http: 600, prompt: 30 };

export async function parseGeminiLike(dialect: Dialect, doc: unknown, ctx: ParseContext): Promise<ParseResult> {
  const diags = new Diags(ctx.file);
  const hooks: NormalizedHook[] = [];
  const isQwen = dialect.name === 'qwen';
  if (!isObject(doc)) {
    diags.error([], 'expected a JSON object');
    return { hooks, diagnostics: diags.list, ok: false };
  }
  const events = doc.hooks;
  if (events === undefined) return { hooks, diagnostics: diags.list, ok: true };
  if (!isObject(events)) {
    diags.error(['hooks'], `expected an object of events, got ${Array.isArray(events) ? 'array' : typeof events}`);
    return { hooks, diagnostics: diags.list, ok: false };
  }
  // Switches: Gemini's hooksConfig (or the same fields inside hooks), Qwen's disableAllHooks.
  const switches = isObject(doc.hooksConfig) ? doc.hooksConfig : events;
  const at = isObject(doc.hooksConfig) ? ['hooksConfig'] : ['hooks'];
  if (!isQwen && switches.enabled === false) {
    diags.warn([...at, 'enabled'], 'hooks are disabled in this file (enabled: false); none loaded');
    return { hooks, diagnostics: diags.list, ok: true };
  }
  if (isQwen && doc.disableAllHooks === true) {
    diags.warn(['disableAllHooks'], 'disableAllHooks is true in this file; none of its hooks loaded');
    return { hooks, diagnostics: diags.list, ok: true };
  }
  const disabled = !isQwen && Array.isArray(switches.disabled) ? switches.disabled.filter((x): x is string => typeof x === 'string') : [];

  for (const [native, rawGroups] of Object.entries(events)) {
    if (!isQwen && GEMINI_HOOKS_FIELDS.includes(native)) continue;
    const mapped = mappedEvent(dialect, native, rawGroups, diags, { agent: dialect.title, entries: 'hook definitions' });
    if (!mapped) continue;
    const { event, entries: groups } = mapped;
    const mode = dialect.matcherMode(event);
    groups.forEach((group, gi) => {
      const gp = ['hooks', native, gi];
      const g = validate(groupSchema, group, gp, diags);
      if (!g) return;
      checkKeys(group, KEYS[isQwen ? 'qwen' : 'gemini'].group, gp, diags, 'warning', 'key', dialect.title);
      if (g.matcher !== undefined && eventSpec(event).matcher === null && g.matcher.trim() !== '' && g.matcher.trim() !== '*') {
        diags.warn([...gp, 'matcher'], `agent-hooks has no matcher on ${event}; the hooks run for every ${native}`);
      }
      if (g.matcher !== undefined && compileMatcherFor(g.matcher, mode).kind === 'invalid') {
        diags.warn([...gp, 'matcher'], `invalid regular expression ${JSON.stringify(g.matcher)}; it never matches`);
      }
      g.hooks.forEach((raw, hi) => {
        const hp = [...gp, 'hooks', hi];
        const type = isObject(raw) ? raw.type : undefined;
        const allowed = isQwen ? ['command', 'http', 'prompt'] : ['command'];
        if (typeof type !== 'string' || !allowed.includes(type)) {
          if (isQwen && type === 'function')
            diags.warn([...hp, 'type'], 'function hooks cannot be configured in settings (Qwen registers them in code); skipped');
          else if (!isQwen && type === 'plugin')
            diags.warn([...hp, 'type'], "Gemini 'plugin' hooks are not supported by agent-hooks; skipped");
          else
            diags.error(
              [...hp, 'type'],
              `expected one of ${allowed.map((t) => JSON.stringify(t)).join(', ')}, got ${type === undefined ? 'nothing' : JSON.stringify(type)}`,
            );
          return;
        }
        const schema = type === 'http' ? httpSchema : type === 'prompt' ? promptSchema : commandSchema;
        const h = validate(schema as z.ZodType<Record<string, unknown>>, raw, hp, diags);
        if (!h) return;
        const keys = isQwen ? KEYS.qwen[type as 'command' | 'http' | 'prompt'] : KEYS.gemini.command;
        checkKeys(raw, keys, hp, diags, 'warning', 'field', dialect.title);
        const name = typeof h.name === 'string' ? h.name : undefined;
        if (disabled.length && disabled.includes(name ?? String(h.command ?? ''))) {
          diags.warn(hp, `hook ${JSON.stringify(name ?? h.command)} is in the disabled list; not loaded`);
          return;
        }
        const given = typeof h.timeout === 'number' ? h.timeout : undefined;
        const timeout =
          given === undefined
            ? isQwen && type !== 'command'
              ? QWEN_SECONDS_DEFAULT[type]!
              : dialect.defaults.timeoutSec!
            : isQwen
              ? qwenSeconds(given)
              : given / 1000;
        const common = {
          timeout,
          ...(typeof h.statusMessage === 'string' ? { statusMessage: h.statusMessage } : {}),
          ...(typeof h.if === 'string' ? { if: h.if } : {}),
        };
        let handler: HookHandler;
        if (type === 'http') {
          handler = {
            type: 'http',
            url: h.url as string,
            ...(h.headers ? { headers: h.headers as Record<string, string> } : {}),
            ...(h.allowedEnvVars ? { allowedEnvVars: h.allowedEnvVars as string[] } : {}),
            ...(h.once === true ? { once: true } : {}),
            ...common,
          };
        } else if (type === 'prompt') {
          handler = { type: 'prompt', prompt: h.prompt as string, ...(typeof h.model === 'string' ? { model: h.model } : {}), ...common };
        } else {
          const c: CommandHandler = { type: 'command', command: h.command as string, ...common };
          if (h.args) c.args = h.args as string[];
          if (h.env) c.env = h.env as Record<string, string>;
          if (h.shell) c.shell = h.shell as 'bash' | 'powershell';
          if (h.async === true || g.async === true) c.async = true;
          handler = c;
        }
        const data: Record<string, unknown> = { nativeEvent: native };
        if (given === undefined) data.timeoutDefaulted = true;
        if (name !== undefined) data.name = name;
        if (typeof h.description === 'string') data.description = h.description;
        if (g.sequential !== undefined) data.sequential = g.sequential;
        hooks.push(
          makeHook({
            dialect,
            ctx,
            event,
            ...(g.matcher !== undefined ? { matcher: g.matcher } : {}),
            matcherMode: mode,
            handler,
            path: hp,
            data,
          }),
        );
      });
    });
  }
  const ok = diags.ok;
  return { hooks: ok ? hooks : [], diagnostics: diags.list, ok };
}

export async function serializeGeminiLike(dialect: Dialect, hooks: readonly NormalizedHook[]): Promise<SerializeResult> {
  const log = lossLog();
  const isQwen = dialect.name === 'qwen';
  const entries: GroupEntry[] = [];
  for (const hook of hooks) {
    const own = hook.dialect === dialect.name;
    const nativeWanted = own && typeof hook.dialectData?.nativeEvent === 'string' ? hook.dialectData.nativeEvent : undefined;
    const mapping = dialect.events.find((e) => e.event === hook.event && (nativeWanted === undefined || e.native === nativeWanted));
    if (!mapping) {
      log.hook(hook, `${dialect.title} has no equivalent of ${hook.event}`);
      continue;
    }
    const type = hook.handler.type;
    const supported = isQwen ? ['command', 'http', 'prompt'] : ['command'];
    if (!supported.includes(type)) {
      log.hook(hook, `${dialect.title} settings cannot hold '${type}' hooks`);
      continue;
    }
    const matchers = matchersFor(hook, dialect, log);
    if (!matchers) continue;
    const h = hook.handler as unknown as Record<string, unknown>;
    const handler: Record<string, unknown> = { type };
    let keep: string[];
    if (type === 'command') {
      handler.command = h.command;
      keep = isQwen ? ['command', 'timeout', 'args', 'env', 'async', 'statusMessage', 'if'] : ['command', 'timeout', 'env'];
      if (isQwen && h.args) handler.args = h.args;
      if (isQwen && (h.shell === 'bash' || h.shell === 'powershell')) {
        handler.shell = h.shell;
        keep.push('shell');
      }
    } else if (type === 'http') {
      for (const k of ['url', 'headers', 'allowedEnvVars']) if (h[k] !== undefined) handler[k] = h[k];
      keep = ['url', 'headers', 'allowedEnvVars', 'timeout', 'statusMessage', 'once', 'if'];
    } else {
      for (const k of ['prompt', 'model']) if (h[k] !== undefined) handler[k] = h[k];
      keep = ['prompt', 'model', 'timeout', 'statusMessage', 'if'];
    }
    const data = hook.dialectData ?? {};
    if (typeof data.name === 'string') handler.name = data.name;
    if (typeof data.description === 'string' && (type !== 'http' || !isQwen)) handler.description = data.description;
    const timeout = timeoutOut(hook, isQwen ? 's' : 'ms');
    if (timeout !== undefined) handler.timeout = timeout;
    if (type === 'command' && h.env !== undefined) handler.env = h.env;
    if (isQwen) {
      if (h.async === true) handler.async = true;
      if (h.statusMessage !== undefined) handler.statusMessage = h.statusMessage;
      if (h.once === true && type === 'http') handler.once = true;
      if (h.if !== undefined) handler.if = h.if;
    }
    reportCommandFieldLosses(hook, keep, log, dialect.title);
    reportDataLosses(hook, ['name', 'description', 'sequential'], log, dialect.title);
    const group = typeof data.sequential === 'boolean' ? { sequential: data.sequential } : undefined;
    for (const matcher of matchers)
      entries.push({ event: mapping.native, ...(matcher !== undefined ? { matcher } : {}), ...(group ? { group } : {}), handler });
  }
  return { text: sortedJson({ hooks: buildGroups(entries) }), losses: log.losses };
}
