/** Codex hooks.json / config.toml `[hooks]`: parse and serialize. */
import { z } from 'zod';
import type { EventName } from '../../events/catalog.js';
import type { NormalizedHook } from '../../types.js';
import { CODEX_MATCHER_EVENTS, codex } from './facts.js';
import { compileMatcherFor } from '../../matching/modes.js';
import { isObject } from '../shared/facts.js';
import type { ParseContext, ParseResult, SerializeOptions, SerializeResult } from '../types.js';
import { buildGroups, matchersFor, type GroupEntry } from '../claude/reader.js';
import {
  checkKeys,
  commandOf,
  Diags,
  lossLog,
  makeHook,
  reportCommandFieldLosses,
  reportDataLosses,
  sortedJson,
  timeoutOut,
  validate,
} from '../shared/reader.js';

const GROUP_KEYS = ['matcher', 'hooks'];
const HANDLER_KEYS = ['type', 'command', 'timeout', 'timeoutSec', 'async', 'statusMessage', 'commandWindows', 'visibilityHint'];

const handlerSchema = z.looseObject({
  type: z.enum(['command', 'prompt', 'agent']),
  command: z.string().optional(),
  timeout: z.number().int().min(0).optional(),
  timeoutSec: z.number().int().min(0).optional(),
  async: z.boolean().optional(),
  statusMessage: z.string().optional(),
  commandWindows: z.string().optional(),
});
const groupSchema = z.looseObject({ matcher: z.string().optional(), hooks: z.array(z.unknown()).optional() });

/** One file being read: where diagnostics and hooks go. */
interface FileParse {
  ctx: ParseContext;
  diags: Diags;
  hooks: NormalizedHook[];
}

/** One matcher group: its path, event, the group as validated and the matcher that applies. */
interface GroupParse {
  native: string;
  event: EventName;
  gp: (string | number)[];
  g: z.infer<typeof groupSchema>;
  /** undefined where Codex ignores the group's matcher (events without matchers). */
  matcher: string | undefined;
}

export async function parseCodex(doc: unknown, ctx: ParseContext): Promise<ParseResult> {
  const diags = new Diags(ctx.file);
  const hooks: NormalizedHook[] = [];
  const toml = /\.toml$/i.test(ctx.file);
  if (!isObject(doc)) {
    diags.error([], 'expected a JSON object');
    return { hooks, diagnostics: diags.list, ok: false };
  }
  if (!toml) checkKeys(doc, ['hooks'], [], diags, 'warning', 'key', 'Codex');
  const events = doc.hooks;
  if (events === undefined) return { hooks, diagnostics: diags.list, ok: true };
  if (!isObject(events)) {
    diags.error(['hooks'], `expected an object of events, got ${Array.isArray(events) ? 'array' : typeof events}`);
    return { hooks, diagnostics: diags.list, ok: false };
  }
  const file: FileParse = { ctx, diags, hooks };
  for (const [native, groups] of Object.entries(events)) {
    if (native === 'state' && toml) continue; // per-hook trust state Codex keeps in config.toml
    parseEvent(file, native, groups);
  }
  const ok = diags.ok;
  return { hooks: ok ? hooks : [], diagnostics: diags.list, ok };
}

function parseEvent(file: FileParse, native: string, groups: unknown): void {
  const { diags } = file;
  const mapping = codex.events.find((e) => e.native === native);
  if (!mapping?.event) {
    diags.warn(['hooks', native], `unknown Codex event ${JSON.stringify(native)}; Codex ignores it`);
    return;
  }
  const event = mapping.event;
  if (!Array.isArray(groups)) {
    diags.error(['hooks', native], `expected an array of matcher groups, got ${typeof groups}`);
    return;
  }
  groups.forEach((group, gi) => {
    parseGroup(file, native, event, group, gi);
  });
}

function parseGroup(file: FileParse, native: string, event: EventName, group: unknown, gi: number): void {
  const { diags } = file;
  const gp = ['hooks', native, gi];
  const g = validate(groupSchema, group, gp, diags);
  if (!g) return;
  checkKeys(group, GROUP_KEYS, gp, diags, 'warning', 'key', 'Codex');
  let matcher = g.matcher;
  if (matcher !== undefined && !CODEX_MATCHER_EVENTS.has(native)) {
    if (matcher.trim() !== '' && matcher !== '*')
      diags.warn([...gp, 'matcher'], `Codex ignores matchers on ${native}; the hooks run for every ${native}`);
    matcher = undefined;
  }
  if (matcher !== undefined) {
    const compiled = compileMatcherFor(matcher, 'claude-narrow');
    if (compiled.kind === 'invalid') {
      diags.warn([...gp, 'matcher'], `${compiled.error}; Codex skips this group`);
      return;
    }
  }
  const at: GroupParse = { native, event, gp, g, matcher };
  (g.hooks ?? []).forEach((raw, hi) => {
    parseEntry(file, at, raw, hi);
  });
}

/** One handler: only command hooks with a non-empty command load; the rest say why not. */
function parseEntry(file: FileParse, at: GroupParse, raw: unknown, hi: number): void {
  const { diags } = file;
  const { g, matcher } = at;
  const hp = [...at.gp, 'hooks', hi];
  const h = validate(handlerSchema, raw, hp, diags);
  if (!h) return;
  checkKeys(raw, HANDLER_KEYS, hp, diags, 'warning', 'field', 'Codex');
  if (h.type !== 'command') {
    diags.warn([...hp, 'type'], `Codex skips '${h.type}' hooks (not supported yet); not loaded`);
    return;
  }
  if (h.command === undefined) {
    diags.error([...hp, 'command'], 'missing required field (expected string)');
    return;
  }
  if (h.command.trim() === '') {
    diags.warn([...hp, 'command'], 'empty command; Codex skips this hook');
    return;
  }
  const given = h.timeout ?? h.timeoutSec;
  const timeout = Math.max(1, given ?? codex.defaults.timeoutSec!);
  const data: Record<string, unknown> = { nativeEvent: at.native, ...(given === undefined ? { timeoutDefaulted: true } : {}) };
  if (h.commandWindows !== undefined) data.commandWindows = h.commandWindows;
  if (isObject(raw) && raw.visibilityHint !== undefined) data.visibilityHint = raw.visibilityHint;
  if (g.matcher !== undefined && matcher === undefined) data.ignoredMatcher = g.matcher;
  file.hooks.push(
    makeHook({
      dialect: codex,
      ctx: file.ctx,
      event: at.event,
      ...(matcher !== undefined ? { matcher } : {}),
      matcherMode: 'claude-narrow',
      handler: {
        type: 'command',
        command: h.command,
        timeout,
        ...(h.async ? { async: true } : {}),
        ...(h.statusMessage !== undefined ? { statusMessage: h.statusMessage } : {}),
      },
      path: hp,
      data,
    }),
  );
}

export async function serializeCodex(hooks: readonly NormalizedHook[], opts: SerializeOptions = {}): Promise<SerializeResult> {
  const log = lossLog();
  const entries: GroupEntry[] = [];
  for (const hook of hooks) {
    const mapping = codex.events.find((e) => e.event === hook.event);
    if (!mapping) {
      log.hook(hook, `Codex has no ${hook.event} event`);
      continue;
    }
    const cmd = commandOf(hook);
    if (!cmd) {
      log.hook(hook, `Codex runs only command hooks, not '${hook.handler.type}'`);
      continue;
    }
    let matchers = matchersFor(hook, codex, log);
    if (!matchers) continue;
    if (!CODEX_MATCHER_EVENTS.has(mapping.native) && matchers.some((m) => m !== undefined)) {
      log.field(
        hook,
        `Codex ignores matchers on ${mapping.native}; matcher ${JSON.stringify(hook.matcher)} left out (the hook runs for every ${mapping.native})`,
      );
      matchers = [undefined];
    }
    const handler: Record<string, unknown> = { type: 'command', command: cmd.command };
    const timeout = timeoutOut(hook, 's');
    if (timeout !== undefined) {
      if (!Number.isInteger(timeout)) log.field(hook, `Codex timeouts are whole seconds; ${timeout} written as ${Math.ceil(timeout)}`);
      handler.timeout = Math.ceil(timeout);
    }
    if (cmd.async) handler.async = true;
    if (cmd.statusMessage !== undefined) handler.statusMessage = cmd.statusMessage;
    reportCommandFieldLosses(hook, ['command', 'timeout', 'async', 'statusMessage'], log, 'Codex');
    const data = hook.dialect === 'codex' ? (hook.dialectData ?? {}) : {};
    if (typeof data.commandWindows === 'string') handler.commandWindows = data.commandWindows;
    if (data.visibilityHint !== undefined) handler.visibilityHint = data.visibilityHint;
    if (hook.dialect !== 'codex') reportDataLosses(hook, [], log, 'Codex');
    for (const matcher of [...new Set(matchers)])
      entries.push({ event: mapping.native, ...(matcher !== undefined ? { matcher } : {}), handler });
  }
  const body = { hooks: buildGroups(entries) };
  if (opts.format === 'toml') {
    const { stringify } = await import('smol-toml');
    return { text: `${stringify(body)}\n`, losses: log.losses };
  }
  return { text: sortedJson(body), losses: log.losses };
}
