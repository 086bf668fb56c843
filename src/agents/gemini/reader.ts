/**
 * Gemini CLI and Qwen Code settings.json `hooks`: Claude-shaped groups with `sequential`,
 * millisecond command timeouts, `name`/`description` on handlers. Qwen adds http and prompt
 * handlers, timeouts in seconds for every type (0.24; ≥ 1000 = legacy ms), `async`, `shell`, `args`, `if`, and `disableAllHooks`.
 */
import { z } from 'zod';
import type { EventName } from '../../events/catalog.js';
import type { CommandHandler, HookHandler, NormalizedHook } from '../../types.js';
import { compileMatcherFor } from '../../matching/modes.js';
import { isObject } from '../shared/facts.js';
import type { Dialect } from '../types.js';
import type { ParseContext, ParseResult, SerializeResult } from '../types.js';
import { buildGroups, matchersFor, type GroupEntry } from '../claude/reader.js';
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
} from '../shared/reader.js';

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

/** One file being read: where diagnostics and hooks go, and the file-wide switches. */
interface FileParse {
  dialect: Dialect;
  ctx: ParseContext;
  diags: Diags;
  hooks: NormalizedHook[];
  isQwen: boolean;
  /** Gemini's hooksConfig.disabled: hook names (or commands) not to load. */
  disabled: string[];
}

/** One group of one event: its path, the mapped event and how its matcher reads. */
interface GroupParse {
  native: string;
  event: EventName;
  mode: ReturnType<Dialect['matcherMode']>;
  gp: (string | number)[];
  g: z.infer<typeof groupSchema>;
}

type HandlerType = 'command' | 'http' | 'prompt';

export async function parseGeminiLike(dialect: Dialect, doc: unknown, ctx: ParseContext): Promise<ParseResult> {
  const diags = new Diags(ctx.file);
  const hooks: NormalizedHook[] = [];
  const isQwen = dialect.name === 'qwen';
  const opened = openHooks(doc, isQwen, diags);
  if ('ok' in opened) return { hooks, diagnostics: diags.list, ok: opened.ok };
  const file: FileParse = { dialect, ctx, diags, hooks, isQwen, disabled: opened.disabled };

  for (const [native, rawGroups] of Object.entries(opened.events)) {
    if (!isQwen && GEMINI_HOOKS_FIELDS.includes(native)) continue;
    const mapped = mappedEvent(dialect, native, rawGroups, diags, { agent: dialect.title, entries: 'hook definitions' });
    if (!mapped) continue;
    const { event, entries: groups } = mapped;
    const mode = dialect.matcherMode(event);
    groups.forEach((group, gi) => {
      parseGroup(file, native, event, mode, group, gi);
    });
  }
  const ok = diags.ok;
  return { hooks: ok ? hooks : [], diagnostics: diags.list, ok };
}

/**
 * The file's `hooks` object and disabled list, or the outcome when there is nothing to read:
 * not an object (error), no hooks (fine), or hooks switched off in this file (a warning).
 */
function openHooks(doc: unknown, isQwen: boolean, diags: Diags): { ok: boolean } | { events: Record<string, unknown>; disabled: string[] } {
  if (!isObject(doc)) {
    diags.error([], 'expected a JSON object');
    return { ok: false };
  }
  const events = doc.hooks;
  if (events === undefined) return { ok: true };
  if (!isObject(events)) {
    diags.error(['hooks'], `expected an object of events, got ${Array.isArray(events) ? 'array' : typeof events}`);
    return { ok: false };
  }
  // Switches: Gemini's hooksConfig (or the same fields inside hooks), Qwen's disableAllHooks.
  const switches = isObject(doc.hooksConfig) ? doc.hooksConfig : events;
  const at = isObject(doc.hooksConfig) ? ['hooksConfig'] : ['hooks'];
  if (!isQwen && switches.enabled === false) {
    diags.warn([...at, 'enabled'], 'hooks are disabled in this file (enabled: false); none loaded');
    return { ok: true };
  }
  if (isQwen && doc.disableAllHooks === true) {
    diags.warn(['disableAllHooks'], 'disableAllHooks is true in this file; none of its hooks loaded');
    return { ok: true };
  }
  const disabled = !isQwen && Array.isArray(switches.disabled) ? switches.disabled.filter((x): x is string => typeof x === 'string') : [];
  return { events, disabled };
}

function parseGroup(file: FileParse, native: string, event: EventName, mode: GroupParse['mode'], group: unknown, gi: number): void {
  const { diags, dialect } = file;
  const gp = ['hooks', native, gi];
  const g = validate(groupSchema, group, gp, diags);
  if (!g) return;
  checkKeys(group, KEYS[file.isQwen ? 'qwen' : 'gemini'].group, gp, diags, 'warning', 'key', dialect.title);
  if (g.matcher !== undefined && eventSpec(event).matcher === null && g.matcher.trim() !== '' && g.matcher.trim() !== '*') {
    diags.warn([...gp, 'matcher'], `agent-hooks has no matcher on ${event}; the hooks run for every ${native}`);
  }
  if (g.matcher !== undefined && compileMatcherFor(g.matcher, mode).kind === 'invalid') {
    diags.warn([...gp, 'matcher'], `invalid regular expression ${JSON.stringify(g.matcher)}; it never matches`);
  }
  const at: GroupParse = { native, event, mode, gp, g };
  g.hooks.forEach((raw, hi) => {
    parseEntry(file, at, raw, hi);
  });
}

/** One handler entry: type check, validation, the disabled list, then one NormalizedHook. */
function parseEntry(file: FileParse, at: GroupParse, raw: unknown, hi: number): void {
  const { diags, dialect, isQwen } = file;
  const { g } = at;
  const hp = [...at.gp, 'hooks', hi];
  const type = handlerType(file, raw, hp);
  if (!type) return;
  const schema = type === 'http' ? httpSchema : type === 'prompt' ? promptSchema : commandSchema;
  const h = validate(schema as z.ZodType<Record<string, unknown>>, raw, hp, diags);
  if (!h) return;
  const keys = isQwen ? KEYS.qwen[type] : KEYS.gemini.command;
  checkKeys(raw, keys, hp, diags, 'warning', 'field', dialect.title);
  const name = typeof h.name === 'string' ? h.name : undefined;
  if (file.disabled.length && file.disabled.includes(name ?? String(h.command ?? ''))) {
    diags.warn(hp, `hook ${JSON.stringify(name ?? h.command)} is in the disabled list; not loaded`);
    return;
  }
  const given = typeof h.timeout === 'number' ? h.timeout : undefined;
  const handler = buildHandler(type, h, g, timeoutSeconds(file, type, given));
  const data: Record<string, unknown> = { nativeEvent: at.native };
  if (given === undefined) data.timeoutDefaulted = true;
  if (name !== undefined) data.name = name;
  if (typeof h.description === 'string') data.description = h.description;
  if (g.sequential !== undefined) data.sequential = g.sequential;
  file.hooks.push(
    makeHook({
      dialect,
      ctx: file.ctx,
      event: at.event,
      ...(g.matcher !== undefined ? { matcher: g.matcher } : {}),
      matcherMode: at.mode,
      handler,
      path: hp,
      data,
    }),
  );
}

/** The entry's handler type when this dialect supports it; otherwise says why it is skipped. */
function handlerType(file: FileParse, raw: unknown, hp: (string | number)[]): HandlerType | undefined {
  const { diags, isQwen } = file;
  const type = isObject(raw) ? raw.type : undefined;
  const allowed = isQwen ? ['command', 'http', 'prompt'] : ['command'];
  if (typeof type === 'string' && allowed.includes(type)) return type as HandlerType;
  if (isQwen && type === 'function')
    diags.warn([...hp, 'type'], 'function hooks cannot be configured in settings (Qwen registers them in code); skipped');
  else if (!isQwen && type === 'plugin') diags.warn([...hp, 'type'], "Gemini 'plugin' hooks are not supported by agent-hooks; skipped");
  else
    diags.error(
      [...hp, 'type'],
      `expected one of ${allowed.map((t) => JSON.stringify(t)).join(', ')}, got ${type === undefined ? 'nothing' : JSON.stringify(type)}`,
    );
  return undefined;
}

/** Seconds: Gemini writes milliseconds; Qwen seconds (legacy ms ≥ 1000), with its own non-command defaults. */
function timeoutSeconds(file: FileParse, type: HandlerType, given: number | undefined): number {
  if (given === undefined) return file.isQwen && type !== 'command' ? QWEN_SECONDS_DEFAULT[type]! : file.dialect.defaults.timeoutSec!;
  return file.isQwen ? qwenSeconds(given) : given / 1000;
}

function buildHandler(type: HandlerType, h: Record<string, unknown>, g: GroupParse['g'], timeout: number): HookHandler {
  const common = {
    timeout,
    ...(typeof h.statusMessage === 'string' ? { statusMessage: h.statusMessage } : {}),
    ...(typeof h.if === 'string' ? { if: h.if } : {}),
  };
  if (type === 'http') {
    return {
      type: 'http',
      url: h.url as string,
      ...(h.headers ? { headers: h.headers as Record<string, string> } : {}),
      ...(h.allowedEnvVars ? { allowedEnvVars: h.allowedEnvVars as string[] } : {}),
      ...(h.once === true ? { once: true } : {}),
      ...common,
    };
  }
  if (type === 'prompt') {
    return { type: 'prompt', prompt: h.prompt as string, ...(typeof h.model === 'string' ? { model: h.model } : {}), ...common };
  }
  const c: CommandHandler = { type: 'command', command: h.command as string, ...common };
  if (h.args) c.args = h.args as string[];
  if (h.env) c.env = h.env as Record<string, string>;
  if (h.shell) c.shell = h.shell as 'bash' | 'powershell';
  // A group's async applies to each of its command hooks (Qwen).
  if (h.async === true || g.async === true) c.async = true;
  return c;
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
