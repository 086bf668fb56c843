/**
 * Reading one settings document (Claude Code's settings.json shape): the file's text, strict
 * validation into path-qualified diagnostics, and its hooks normalized with provenance. The
 * readers of other dialects use loadSettingsText for Claude-shaped files (src/agents/<name>/reader.ts).
 */
import { readFile, readFileSync } from 'node:fs';
import type { z } from 'zod';
import { compiledCheck } from '../events/compiled.js';
import { EVENT_NAMES, eventFacts, isEventName, type EventName } from '../events/facts.js';
import type { Diagnostic, HookHandler, NormalizedHook, Provenance, SourceKind } from '../types.js';
import { ROOT_PATH, formatPath, issuesToDiagnostics, nestingProblem, parseJson, type DocumentKind } from './diagnostics.js';
import { closest } from '../util/did-you-mean.js';
import { dedupKeyFor, normalizeMatcher } from './registry.js';
import { dropUnknownHookKeys } from './liberal.js';
import { AGENT_HOOKS_OPTION_KEYS, GROUP_KEYS, HANDLER_KEYS, SETTINGS_KEYS, type HandlerTypeName } from './keys.js';
import type { HooksConfig, SettingsFile } from './schema.js';
import { configZodSchemas } from '../util/zod-slot.js';
import { hasOwnProtoKey } from '../util/proto-key.js';

export type ReadResult = { status: 'ok'; text: string } | { status: 'missing' } | { status: 'error'; message: string };

/**
 * One file's text. Through fs.readFile's callback, not fs.promises: the first use of fs.promises
 * loads its module (with readline and the directory and watcher classes), about 1.6 ms of every
 * dispatch with a hook to run here (docs/performance.md item 10). `sync`: in place, for a
 * process with nothing else to run meanwhile (LoadConfigOptions.readFilesSync).
 */
export async function readText(file: string, sync = false): Promise<ReadResult> {
  try {
    const text = sync
      ? readFileSync(file, 'utf8')
      : await new Promise<string>((resolve, reject) => readFile(file, 'utf8', (e, t) => (e ? reject(e) : resolve(t))));
    return { status: 'ok', text };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { status: 'missing' };
    if (code === 'EISDIR') return { status: 'error', message: 'cannot read file: it is a directory' };
    return { status: 'error', message: `cannot read file: ${code ?? (e as Error).message}` };
  }
}

/** Source context shared by all hooks of one file. */
export interface SourceContext {
  kind: SourceKind;
  file: string;
  pluginRoot?: string;
  pluginName?: string;
  pluginId?: string;
  pluginData?: string;
  skillRoot?: string;
  skillName?: string;
  managed?: boolean;
  /** Placeholders replaced (plain string replace) in command and args. */
  substitutions?: Record<string, string>;
}

function substitute(s: string, vars: Record<string, string> | undefined): string {
  if (!vars) return s;
  let out = s;
  for (const [name, value] of Object.entries(vars)) out = out.split(`\${${name}}`).join(value);
  return out;
}

/**
 * Validated hooks object → NormalizedHooks. `rawHooks` supplies the file's event order
 * (zod output follows the schema's order). Also reports questionable-but-valid config as warnings.
 */
export function normalizeHooks(
  hooks: HooksConfig,
  rawHooks: Record<string, unknown>,
  ctx: SourceContext,
  diagnostics: Diagnostic[],
): NormalizedHook[] {
  const out: NormalizedHook[] = [];
  const warn = (p: PropertyKey[], message: string) => diagnostics.push({ level: 'warning', file: ctx.file, path: formatPath(p), message });

  for (const event of Object.keys(rawHooks)) {
    if (!isEventName(event)) continue; // unreachable after validation; keeps types honest
    const spec = eventFacts(event);
    const groups = hooks[event] ?? [];
    groups.forEach((group, gi) => {
      if (spec.matcher === null && normalizeMatcher(group.matcher) !== '') {
        warn(['hooks', event, gi, 'matcher'], `${event} has no matcher support; the matcher is ignored`);
      }
      group.hooks.forEach((cfg, hi) => {
        const p: PropertyKey[] = ['hooks', event, gi, 'hooks', hi];
        if (spec.hookTypes && !spec.hookTypes.includes(cfg.type)) {
          warn(
            [...p, 'type'],
            `${event} does not support '${cfg.type}' hooks (supported: ${spec.hookTypes.join(', ')}); this hook is skipped`,
          );
          return;
        }
        if (cfg.if !== undefined && !spec.ifCondition) {
          warn([...p, 'if'], `'if' is only evaluated on tool events; on ${event} a hook with 'if' never runs`);
        }
        if (cfg.once && ctx.kind !== 'skill') {
          warn([...p, 'once'], `'once' is only honoured in skill frontmatter; ignored here`);
        }
        let handler: HookHandler = { ...cfg };
        if (cfg.type === 'command') {
          if (cfg.args && /\s/.test(cfg.command) && !/[\\/]/.test(cfg.command)) {
            warn(
              [...p, 'command'],
              `with 'args', 'command' is one executable; move the extra words of ${JSON.stringify(cfg.command)} into 'args'`,
            );
          }
          handler = {
            ...cfg,
            command: substitute(cfg.command, ctx.substitutions),
            ...(cfg.args ? { args: cfg.args.map((a) => substitute(a, ctx.substitutions)) } : {}),
          };
        }
        const hookPath = formatPath(p);
        const source: Provenance & { managed?: boolean } = { kind: ctx.kind, file: ctx.file, path: hookPath };
        for (const k of ['pluginRoot', 'pluginName', 'pluginId', 'pluginData', 'skillRoot', 'skillName'] as const) {
          if (ctx[k] !== undefined) source[k] = ctx[k];
        }
        // Not yet a field of Provenance (asked for); read it through isManagedHook.
        if (ctx.managed) source.managed = true;
        const id = `${ctx.kind}:${ctx.file}#${hookPath}`;
        const base = {
          id,
          event: event as EventName,
          ...(group.matcher !== undefined ? { matcher: group.matcher } : {}),
          handler,
          source,
        };
        out.push({ ...base, dedupKey: dedupKeyFor(base) });
      });
    });
  }
  return out;
}

export function validate<T>(
  schema: z.ZodType<T>,
  raw: unknown,
  file: string,
  doc: DocumentKind,
  diagnostics: Diagnostic[],
  pathPrefix: PropertyKey[] = [],
): T | undefined {
  const r = schema.safeParse(raw);
  if (r.success) return r.data;
  diagnostics.push(...issuesToDiagnostics(r.error.issues, raw, file, doc, pathPrefix));
  return undefined;
}

const UNJUDGED = Symbol('unjudged');

/**
 * A settings document checked as zod's settings schema would, with zod loaded only where the
 * compiled validator (dist/validators/settings.cjs) does not accept it. An accepted document is
 * returned in zod's key order (our keys first, handlers' keys in schema order), as zod's copy
 * would be. A document holding an own `__proto__` key anywhere goes to zod, whose copy turns it
 * into a prototype. UNJUDGED: neither could decide (see SettingsLayer.unjudged).
 */
function validateSettings(doc: unknown, file: string, diagnostics: Diagnostic[]): SettingsFile | undefined | typeof UNJUDGED {
  if (compiledCheck('settings')?.(doc) && !hasOwnProtoKey(doc)) return inSchemaOrder(doc as SettingsFile);
  const zod = configZodSchemas();
  return zod ? validate(zod.settingsFileSchema() as z.ZodType<SettingsFile>, doc, file, 'settings', diagnostics) : UNJUDGED;
}

/** Own keys listed in `order` first, in that order, then the others as they were (a loose object's). */
function ordered<T extends object>(obj: T, order: readonly string[]): T {
  const out: Record<string, unknown> = {};
  const src = obj as Record<string, unknown>;
  for (const k of order) if (Object.hasOwn(src, k)) out[k] = src[k];
  for (const k of Object.keys(src)) if (!Object.hasOwn(out, k)) out[k] = src[k];
  return out as T;
}

function inSchemaOrder(doc: SettingsFile): SettingsFile {
  const out = ordered(doc, SETTINGS_KEYS);
  if (out.agentHooks) out.agentHooks = ordered(out.agentHooks, AGENT_HOOKS_OPTION_KEYS);
  if (!out.hooks) return out;
  const hooks: Record<string, unknown> = {};
  for (const [event, groups] of Object.entries(ordered(out.hooks, EVENT_NAMES))) {
    hooks[event] = groups?.map((g) => ({
      ...ordered(g, GROUP_KEYS),
      hooks: g.hooks.map((h) => ordered(h, HANDLER_KEYS[h.type as HandlerTypeName] ?? [])),
    }));
  }
  return { ...out, hooks: hooks as HooksConfig };
}

export function parseDocument(text: string, file: string, diagnostics: Diagnostic[]): { raw?: unknown } {
  if (text.trim() === '') {
    diagnostics.push({ level: 'warning', file, path: ROOT_PATH, message: 'file is empty; treated as {}' });
    return { raw: {} };
  }
  const parsed = parseJson(text);
  if (!parsed.ok) {
    diagnostics.push({ level: 'error', file, path: ROOT_PATH, message: parsed.message });
    return {};
  }
  const deep = nestingProblem(parsed.value);
  if (deep) {
    diagnostics.push({ level: 'error', file, ...deep });
    return {};
  }
  return { raw: parsed.value };
}

/** A settings or plugin hooks document with unknown group and handler keys dropped (warned about). */
function withLiberalHooks(raw: unknown, file: string, diagnostics: Diagnostic[]): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw) || !Object.hasOwn(raw, 'hooks')) return raw;
  const r = raw as Record<string, unknown>;
  const hooks = dropUnknownHookKeys(r.hooks, ['hooks'], file, diagnostics);
  return hooks === r.hooks ? raw : { ...r, hooks };
}

export interface SettingsLayer {
  kind: SourceKind;
  file: string;
  /**
   * The compiled validator did not accept the file and zod is not loaded: nothing was decided
   * and no diagnostic reported; the caller loads the schemas (config/schema.ts) and reads it again.
   */
  unjudged?: true;
  /** Valid settings; undefined when the file was rejected. */
  data?: SettingsFile;
  /** Policy switches salvaged from a rejected managed file (policy must not fail open on a typo). */
  salvaged?: Pick<SettingsFile, 'disableAllHooks' | 'allowManagedHooksOnly'>;
  hooks: NormalizedHook[];
}

export function loadSettingsText(kind: SourceKind, file: string, text: string, diagnostics: Diagnostic[]): SettingsLayer {
  const local: Diagnostic[] = [];
  const { raw } = parseDocument(text, file, local);
  const layer: SettingsLayer = { kind, file, hooks: [] };
  if (raw !== undefined) {
    // Typo'd top-level keys: warn only; other features own the rest of settings.json.
    if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
      for (const key of Object.keys(raw)) {
        if ((SETTINGS_KEYS as readonly string[]).includes(key)) continue;
        const hint = closest(key, SETTINGS_KEYS, 2);
        if (hint)
          local.push({
            level: 'warning',
            file,
            path: formatPath([key]),
            message: `unknown setting ${JSON.stringify(key)} (did you mean ${JSON.stringify(hint)}?)`,
          });
      }
    }
    const liberal = withLiberalHooks(raw, file, local);
    const checked = validateSettings(liberal, file, local);
    if (checked === UNJUDGED) return { kind, file, hooks: [], unjudged: true };
    const data = checked;
    if (data && !local.some((d) => d.level === 'error')) {
      layer.data = data;
      if (kind !== 'managed' && data.allowManagedHooksOnly !== undefined) {
        local.push({
          level: 'warning',
          file,
          path: 'allowManagedHooksOnly',
          message: 'allowManagedHooksOnly is only honoured in managed settings; ignored',
        });
      }
      if (data.hooks)
        layer.hooks = normalizeHooks(data.hooks, (liberal as { hooks: Record<string, unknown> }).hooks, { kind, file }, local);
    } else if (kind === 'managed' && raw && typeof raw === 'object') {
      const r = raw as Record<string, unknown>;
      layer.salvaged = {};
      if (typeof r.disableAllHooks === 'boolean') layer.salvaged.disableAllHooks = r.disableAllHooks;
      if (typeof r.allowManagedHooksOnly === 'boolean') layer.salvaged.allowManagedHooksOnly = r.allowManagedHooksOnly;
    }
  }
  diagnostics.push(...local);
  return layer;
}
