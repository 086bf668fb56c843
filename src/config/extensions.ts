/**
 * Hooks that come with plugins and skills: a plugin's manifest and hooks files, a skill's (or
 * agent's) frontmatter. Each returns its hooks with provenance and reports problems as
 * path-qualified diagnostics; a broken plugin or skill contributes nothing and never stops the rest.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Diagnostic, HookHandler, NormalizedHook } from '../types.js';
import type { EventName } from '../events/catalog.js';
import { eventFacts } from '../events/facts.js';
import { ROOT_PATH, formatPath, nestingProblem, parseJson } from './diagnostics.js';
import { closest } from '../util/did-you-mean.js';
import { dedupKeyFor } from './registry.js';
import { dropUnknownHookKeys } from './liberal.js';
import { hooksObjectSchema, pluginHooksFileSchema } from './schema.js';
import type { LoadedFile, PluginSpec, SkillSpec } from './options.js';
import { normalizeHooks, parseDocument, readText, validate, type SourceContext } from './settings.js';

/** One plugin being loaded: where it lives, what its hooks are read with, and what came of it. */
interface PluginLoad {
  manifestFile: string;
  ctx: SourceContext;
  diagnostics: Diagnostic[];
  files: LoadedFile[];
  hooks: NormalizedHook[];
  /** False once any hook source is broken: the plugin then contributes nothing. */
  ok: boolean;
}

export async function loadPlugin(
  spec: PluginSpec,
  opts: { cwd: string; configDir: string },
  diagnostics: Diagnostic[],
  files: LoadedFile[],
): Promise<NormalizedHook[]> {
  const root = path.resolve(opts.cwd, spec.root);
  if (!(await isPluginRoot(root, diagnostics))) return [];

  // The manifest supplies the name and, optionally, more hook files (`"hooks": "./x.json"` or a
  // list of them) or inline hooks (`"hooks": {...}`), besides the standard hooks/hooks.json.
  const manifestFile = path.join(root, '.claude-plugin', 'plugin.json');
  const manifestDoc = await readManifest(manifestFile, spec, diagnostics);
  const name = pluginName(spec, manifestDoc, root, manifestFile, diagnostics);
  const ctx = pluginContext(spec, opts, root, name);
  const { hookFiles, inline } = hookSources(root, manifestDoc, manifestFile, diagnostics);

  const load: PluginLoad = { manifestFile, ctx, diagnostics, files, hooks: [], ok: true };
  for (const [i, file] of hookFiles.entries()) await loadHooksFile(load, file, i > 0);
  for (const doc of inline) loadInlineHooks(load, doc);
  // A plugin with any broken hook source contributes nothing (as a settings file with an error).
  return load.ok ? load.hooks : [];
}

async function isPluginRoot(root: string, diagnostics: Diagnostic[]): Promise<boolean> {
  try {
    if (!(await fs.stat(root)).isDirectory()) {
      diagnostics.push({ level: 'error', file: root, path: ROOT_PATH, message: 'plugin root is not a directory' });
      return false;
    }
  } catch {
    diagnostics.push({ level: 'error', file: root, path: ROOT_PATH, message: 'plugin directory not found' });
    return false;
  }
  return true;
}

/** The manifest as an object; absent or unusable → undefined (a warning only when it would have named the plugin). */
async function readManifest(
  manifestFile: string,
  spec: PluginSpec,
  diagnostics: Diagnostic[],
): Promise<Record<string, unknown> | undefined> {
  const manifest = await readText(manifestFile);
  if (manifest.status !== 'ok') return undefined;
  const parsed = parseJson(manifest.text);
  if (parsed.ok && parsed.value && typeof parsed.value === 'object' && !Array.isArray(parsed.value))
    return parsed.value as Record<string, unknown>;
  if (spec.name === undefined) {
    diagnostics.push({
      level: 'warning',
      file: manifestFile,
      path: ROOT_PATH,
      message: parsed.ok ? 'plugin manifest is not a JSON object; using the directory name' : parsed.message,
    });
  }
  return undefined;
}

/** The spec's name, else the manifest's, else the directory's. */
function pluginName(
  spec: PluginSpec,
  manifestDoc: Record<string, unknown> | undefined,
  root: string,
  manifestFile: string,
  diagnostics: Diagnostic[],
): string {
  if (spec.name !== undefined) return spec.name;
  const n = manifestDoc?.name;
  if (typeof n === 'string' && n.trim() !== '') return n;
  if (manifestDoc)
    diagnostics.push({
      level: 'warning',
      file: manifestFile,
      path: 'name',
      message: 'plugin manifest has no string "name"; using the directory name',
    });
  return path.basename(root);
}

function pluginContext(spec: PluginSpec, opts: { cwd: string; configDir: string }, root: string, name: string): SourceContext {
  const id = spec.id ?? `${name}@local`;
  // The name becomes a directory component: keep it to a safe character set.
  const dataDir = spec.dataDir
    ? path.resolve(opts.cwd, spec.dataDir)
    : path.join(opts.configDir, 'plugins', 'data', name.replace(/[^A-Za-z0-9_-]/g, '-'));
  return {
    kind: 'plugin',
    file: '',
    pluginRoot: root,
    pluginName: name,
    pluginId: id,
    pluginData: dataDir,
    ...(spec.managed ? { managed: true } : {}),
    substitutions: { CLAUDE_PLUGIN_ROOT: root, CLAUDE_PLUGIN_DATA: dataDir },
  };
}

/** hooks/hooks.json first, then the files and inline objects the manifest's `hooks` declares. */
function hookSources(
  root: string,
  manifestDoc: Record<string, unknown> | undefined,
  manifestFile: string,
  diagnostics: Diagnostic[],
): { hookFiles: string[]; inline: unknown[] } {
  const hookFiles = [path.join(root, 'hooks', 'hooks.json')];
  const inline: unknown[] = [];
  const declared = manifestDoc?.hooks;
  const declare = (v: unknown, at: PropertyKey[]) => {
    if (typeof v === 'string') {
      const f = path.resolve(root, v);
      if (!hookFiles.includes(f)) hookFiles.push(f);
    } else if (v && typeof v === 'object' && !Array.isArray(v)) inline.push(v);
    else
      diagnostics.push({
        level: 'error',
        file: manifestFile,
        path: formatPath(at),
        message: `expected a path to a hooks file or a hooks object, got ${v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v}`,
      });
  };
  if (Array.isArray(declared))
    declared.forEach((v, i) => {
      declare(v, ['hooks', i]);
    });
  else if (declared !== undefined) declare(declared, ['hooks']);
  return { hookFiles, inline };
}

/** One hooks file; `named` when the manifest named it (then it must exist). */
async function loadHooksFile(load: PluginLoad, file: string, named: boolean): Promise<void> {
  const { diagnostics, files } = load;
  const read = await readText(file);
  if (read.status === 'missing') {
    // The standard file is optional; one the manifest names must exist.
    if (named) {
      diagnostics.push({ level: 'error', file: load.manifestFile, path: 'hooks', message: `hooks file not found: ${file}` });
      load.ok = false;
    }
    return;
  }
  if (read.status === 'error') {
    diagnostics.push({ level: 'error', file, path: ROOT_PATH, message: read.message });
    files.push({ file, kind: 'plugin', ok: false });
    load.ok = false;
    return;
  }
  const local: Diagnostic[] = [];
  const { raw } = parseDocument(read.text, file, local);
  const got = raw === undefined ? undefined : pluginHooksDocument(raw, { ...load.ctx, file }, local);
  const fileOk = got !== undefined && !local.some((d) => d.level === 'error');
  diagnostics.push(...local);
  files.push({ file, kind: 'plugin', ok: fileOk });
  if (fileOk) load.hooks.push(...got);
  else load.ok = false;
}

function loadInlineHooks(load: PluginLoad, doc: unknown): void {
  const local: Diagnostic[] = [];
  // Inline hooks: the hooks.json shape, or the bare hooks object.
  const wrapped = Object.hasOwn(doc as object, 'hooks') ? doc : { hooks: doc };
  const got = pluginHooksDocument(wrapped, { ...load.ctx, file: load.manifestFile }, local, ['hooks']);
  load.diagnostics.push(...local);
  if (got !== undefined && !local.some((d) => d.level === 'error')) load.hooks.push(...got);
  else load.ok = false;
}

/** One plugin hooks document (`{ description?, hooks }`): unknown keys warned about and dropped, then validated. */
function pluginHooksDocument(
  raw: unknown,
  ctx: SourceContext,
  local: Diagnostic[],
  prefix: PropertyKey[] = [],
): NormalizedHook[] | undefined {
  let doc = raw;
  if (doc && typeof doc === 'object' && !Array.isArray(doc)) {
    const r = doc as Record<string, unknown>;
    const extra = Object.keys(r).filter((k) => k !== 'hooks' && k !== 'description');
    for (const key of extra) {
      const hint = closest(key, ['hooks', 'description']);
      local.push({
        level: 'warning',
        file: ctx.file,
        path: formatPath([...prefix.slice(0, -1), key]),
        message: `unknown key ${JSON.stringify(key)} ignored${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ''}`,
      });
    }
    const kept: Record<string, unknown> = {};
    if (Object.hasOwn(r, 'description')) kept.description = r.description;
    if (Object.hasOwn(r, 'hooks')) kept.hooks = dropUnknownHookKeys(r.hooks, [...prefix.slice(0, -1), 'hooks'], ctx.file, local);
    doc = kept;
  }
  const data = validate(pluginHooksFileSchema(), doc, ctx.file, 'plugin', local, prefix.slice(0, -1));
  if (!data || local.some((d) => d.level === 'error')) return undefined;
  return normalizeHooks(data.hooks, (doc as { hooks: Record<string, unknown> }).hooks, ctx, local);
}

export function loadSkill(spec: SkillSpec, cwd: string, diagnostics: Diagnostic[], files: LoadedFile[]): NormalizedHook[] {
  const root = path.resolve(cwd, spec.root);
  const file = spec.file ? path.resolve(cwd, spec.file) : path.join(root, 'SKILL.md');
  const local: Diagnostic[] = [];
  // Frontmatter holds the hooks object itself; paths are reported as hooks.<Event>… as in settings.
  // YAML aliases can make it cyclic or explosively shared: check the shape before anything walks it.
  const deep = nestingProblem(spec.hooks, ['hooks']);
  if (deep) local.push({ level: 'error', file, ...deep });
  const liberal = deep ? spec.hooks : dropUnknownHookKeys(spec.hooks, ['hooks'], file, local);
  const data = deep ? undefined : validate(hooksObjectSchema(), liberal, file, 'hooks', local, ['hooks']);
  let hooks: NormalizedHook[] = [];
  if (data && !local.some((d) => d.level === 'error')) {
    const name = spec.name ?? path.basename(root);
    hooks = normalizeHooks(
      data,
      liberal as Record<string, unknown>,
      {
        kind: 'skill',
        file,
        skillRoot: root,
        skillName: name,
        // Skills reuse CLAUDE_PLUGIN_ROOT for their own root (there is no CLAUDE_SKILL_ROOT).
        substitutions: { CLAUDE_PLUGIN_ROOT: root },
      },
      local,
    );
    if (spec.agent) hooks = hooks.map((h) => agentHook(h, local));
  }
  const ok = !local.some((d) => d.level === 'error');
  diagnostics.push(...local);
  files.push({ file, kind: 'skill', ok });
  return ok ? hooks : [];
}

/** A subagent's hook: Stop → SubagentStop (the catalog's `subagentEvent`; its ignored matcher stays ignored), `once` dropped with a warning. */
function agentHook(hook: NormalizedHook, diagnostics: Diagnostic[]): NormalizedHook {
  let out = hook;
  if (hook.handler.once !== undefined) {
    diagnostics.push({
      level: 'warning',
      file: hook.source.file,
      path: `${hook.source.path}.once`,
      message: `'once' is only honoured in skill frontmatter; ignored in agent frontmatter`,
    });
    const { once: _once, ...handler } = hook.handler;
    out = { ...out, handler: handler as HookHandler };
  }
  const subagentEvent = eventFacts(hook.event).subagentEvent as EventName | undefined;
  if (subagentEvent !== undefined) {
    const { matcher: _matcher, ...rest } = out;
    out = { ...rest, event: subagentEvent };
  }
  return out === hook ? hook : { ...out, dedupKey: dedupKeyFor(out) };
}
