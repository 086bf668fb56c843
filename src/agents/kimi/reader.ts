/**
 * Kimi Code `[[hooks]]`: exactly event / matcher / command / timeout, validated strictly (an
 * unknown field or event fails the whole file, as Kimi's `.strict()` schema does).
 */
import { z } from 'zod';
import type { NormalizedHook } from '../../types.js';
import { compileMatcherFor } from '../../matching/modes.js';
import { KIMI_EVENTS, kimi } from './facts.js';
import { isObject } from '../shared/facts.js';
import type { ParseContext, ParseResult, SerializeResult } from '../types.js';
import { matchersFor } from '../claude/reader.js';
import { isKimiCliFile, isKimiPluginManifest } from './facts.js';
import { shellQuote } from '../shared/flat-reader.js';
import { basename, dirname, join, resolve } from 'node:path';
import { userHome } from '../../util/os-dirs.js';
import { Diags, eventSpec, lossLog, makeHook, reportCommandFieldLosses, reportDataLosses, timeoutOut, validate } from '../shared/reader.js';

const hookSchema = z.strictObject({
  event: z.enum(KIMI_EVENTS as unknown as [string, ...string[]]),
  matcher: z.string().optional(),
  command: z.string().min(1),
  timeout: z.number().int().min(1).max(600).optional(),
});

/** The plugin a manifest belongs to: its root, and the Kimi home its hooks are told about. */
function pluginOf(file: string): { root: string; home: string } {
  const dir = dirname(file);
  const root = basename(dir) === '.kimi-plugin' ? dirname(dir) : dir;
  const home = process.env.KIMI_CODE_HOME ? resolve(process.env.KIMI_CODE_HOME) : join(userHome(), '.kimi-code');
  return { root, home };
}

export async function parseKimi(doc: unknown, ctx: ParseContext): Promise<ParseResult> {
  const diags = new Diags(ctx.file);
  const hooks: NormalizedHook[] = [];
  if (!isObject(doc)) {
    diags.error([], 'expected a TOML document');
    return { hooks, diagnostics: diags.list, ok: false };
  }
  if (doc.hooks === undefined) return { hooks, diagnostics: diags.list, ok: true };
  if (!Array.isArray(doc.hooks)) {
    diags.error(['hooks'], 'expected an array of tables ([[hooks]])');
    return { hooks, diagnostics: diags.list, ok: false };
  }
  // A plugin manifest's hooks (Kimi Code plugin/manifest.ts readHooks): an invalid entry is
  // skipped with a warning and the others load; each runs in the plugin root with
  // KIMI_PLUGIN_ROOT and KIMI_CODE_HOME set.
  const plugin = isKimiPluginManifest(ctx.file) ? pluginOf(ctx.file) : undefined;
  doc.hooks.forEach((raw, i) => {
    const p = ['hooks', i];
    const entry = plugin ? new Diags(ctx.file) : diags;
    const h = validate(hookSchema, raw, p, entry);
    if (plugin && entry !== diags) {
      for (const d of entry.list)
        diags.list.push({ ...d, level: 'warning', message: `${d.message} (Kimi Code skips this plugin hook; the others load)` });
    }
    if (!h) return;
    const event = h.event as (typeof KIMI_EVENTS)[number];
    if (h.matcher !== undefined && h.matcher !== '') {
      if (compileMatcherFor(h.matcher, 'regex').kind === 'invalid')
        diags.warn(
          [...p, 'matcher'],
          `invalid regular expression ${JSON.stringify(h.matcher)}; Kimi treats it as no match, and so does agent-hooks`,
        );
      if (eventSpec(event).matcher === null && event !== 'UserPromptSubmit')
        diags.warn(
          [...p, 'matcher'],
          `agent-hooks has no matcher on ${event} (Kimi matches it against the event target); the hook runs for every ${event}`,
        );
    }
    const hook = makeHook({
      dialect: kimi,
      ctx,
      event,
      ...(h.matcher !== undefined ? { matcher: h.matcher } : {}),
      matcherMode: 'regex',
      handler: plugin
        ? {
            type: 'command',
            command: `cd ${shellQuote(plugin.root)} && ${h.command}`,
            timeout: h.timeout ?? kimi.defaults.timeoutSec!,
            env: { KIMI_PLUGIN_ROOT: plugin.root, KIMI_CODE_HOME: plugin.home },
          }
        : { type: 'command', command: h.command, timeout: h.timeout ?? kimi.defaults.timeoutSec! },
      path: p,
      data: {
        nativeEvent: h.event,
        ...(h.timeout === undefined ? { timeoutDefaulted: true } : {}),
        ...(isKimiCliFile(ctx.file) ? { variant: 'kimi-cli' } : {}),
        ...(plugin ? { pluginRoot: plugin.root, script: h.command } : {}),
      },
    });
    // Kimi tests a UserPromptSubmit matcher against the prompt text (the parts joined).
    hooks.push(event === 'UserPromptSubmit' && h.matcher !== undefined && h.matcher !== '' ? { ...hook, matchField: 'prompt' } : hook);
  });
  // Kimi: one bad entry and the whole configuration fails to load.
  const ok = diags.ok;
  return { hooks: ok ? hooks : [], diagnostics: diags.list, ok };
}

export async function serializeKimi(hooks: readonly NormalizedHook[]): Promise<SerializeResult> {
  const log = lossLog();
  const out: Array<Record<string, unknown>> = [];
  for (const hook of hooks) {
    if (!(KIMI_EVENTS as readonly string[]).includes(hook.event)) {
      log.hook(hook, `Kimi has no ${hook.event} event`);
      continue;
    }
    if (hook.handler.type !== 'command') {
      log.hook(hook, `Kimi runs only command hooks, not '${hook.handler.type}'`);
      continue;
    }
    const matchers = matchersFor(hook, kimi, log);
    if (!matchers) continue;
    const entry: Record<string, unknown> = { event: hook.event };
    let timeout = timeoutOut(hook, 's');
    if (timeout !== undefined) {
      const fixed = Math.min(600, Math.max(1, Math.round(timeout)));
      if (fixed !== timeout) log.field(hook, `Kimi timeouts are whole seconds from 1 to 600; ${timeout} written as ${fixed}`);
      timeout = fixed;
    }
    reportCommandFieldLosses(hook, ['command', 'timeout'], log, 'Kimi');
    reportDataLosses(hook, [], log, 'Kimi');
    for (const matcher of matchers) {
      out.push({
        ...entry,
        ...(matcher !== undefined ? { matcher } : {}),
        command: hook.handler.command,
        ...(timeout !== undefined ? { timeout } : {}),
      });
    }
  }
  const { stringify } = await import('smol-toml');
  return { text: out.length ? `${stringify({ hooks: out })}\n` : '', losses: log.losses };
}
