/**
 * `agent-hooks install / uninstall / install --status`: what changes in an agent's config, as a
 * list of file changes (`before` → `after`; undefined = no file), computed before anything is
 * written so `--dry-run` shows exactly what a run would do. Each install records the file as it
 * was (record.ts), so an uninstall of an unchanged file puts every byte back.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InstallScope, InstallSpec, LocationContext } from '../agents/types.js';
import { failsClosedWhenUnjudged } from '../events/facts.js';
import { dispatchLine, INSTALLED_MARK } from '../util/dispatch-line.js';
import { addEntries, isInstalledEntry, removeEntries } from './edit-json.js';
import { addBlock, removeBlock } from './edit-toml.js';
import { isObject } from '../util/is-object.js';
import { parse } from 'jsonc-parser';

export interface InstallRequest {
  agent: string;
  scope: InstallScope;
  /** Settings files passed through to dispatch, absolute. */
  settings: readonly string[];
  ctx: LocationContext;
  /** Absolute node, CLI entry (dist/cli/bin.cjs) and package directory. */
  node: string;
  cli: string;
  packageDir: string;
}

export interface FileChange {
  file: string;
  before?: string;
  after?: string;
  /** Executable (Cline's hook files). */
  executable?: boolean;
}

export type Plan = { changes: FileChange[]; target: string } | { error: string };

const readOr = (file: string): string | undefined => (existsSync(file) ? readFileSync(file, 'utf8') : undefined);

function targetOf(spec: InstallSpec, req: Pick<InstallRequest, 'scope' | 'ctx'>): string | { error: string } {
  const t = spec.target(req.scope, req.ctx);
  return typeof t === 'string' ? t : { error: `${spec.title}: ${t.unsupported}` };
}

/** The dispatch line of one native event. */
function lineFor(spec: InstallSpec, req: InstallRequest, native: string): string {
  const event = spec.events.find((m) => m.native === native)?.event;
  const closed = event !== undefined && failsClosedWhenUnjudged(event);
  return dispatchLine({
    node: req.node,
    cli: req.cli,
    agent: req.agent,
    settings: req.settings,
    ...(spec.namesEvent ? { event: native } : {}),
    missing: closed ? spec.blocksBy : 'note',
  });
}

const PLUGIN_MARK = 'Written by `agent-hooks install`';

/** The hook file of one event in Cline's directory. */
const hookFile = (line: string) => `#!/bin/sh\n# ${PLUGIN_MARK}; \`agent-hooks uninstall --agent cline\` removes it.\n${line}\n`;

function planFiles(spec: InstallSpec, req: InstallRequest, target: string): Plan {
  const wanted: Array<[string, string]> =
    spec.format === 'plugin'
      ? [[target, (spec.plugin as NonNullable<InstallSpec['plugin']>)(req.packageDir, req.settings)]]
      : spec.events.map((m) => [join(target, m.native), hookFile(lineFor(spec, req, m.native))]);
  const changes: FileChange[] = [];
  for (const [file, text] of wanted) {
    const before = readOr(file);
    if (before !== undefined && !before.includes(PLUGIN_MARK))
      return { error: `${file} exists and was not written by agent-hooks install; not replaced (move it away or merge by hand)` };
    if (before !== text) changes.push({ file, before, after: text, executable: spec.format === 'hooks-dir' });
  }
  return { changes, target };
}

export function planInstall(spec: InstallSpec, req: InstallRequest): Plan {
  const target = targetOf(spec, req);
  if (typeof target !== 'string') return target;
  if (spec.format === 'plugin' || spec.format === 'hooks-dir') return planFiles(spec, req, target);
  const before = readOr(target);
  const r =
    spec.format === 'toml'
      ? addBlock(target, before, new Map(spec.events.map((m) => [m.native, lineFor(spec, req, m.native)])))
      : addEntries(
          target,
          before,
          new Map(spec.events.map((m) => [m.native, (spec.entry as NonNullable<InstallSpec['entry']>)(lineFor(spec, req, m.native))])),
          spec.base,
        );
  if ('error' in r) return r;
  return { changes: r.text === before ? [] : [{ file: target, before, after: r.text }], target };
}

/** The changes that take our lines out again (the record, record.ts, turns an unchanged file back byte for byte). */
export function planUninstall(spec: InstallSpec, req: Pick<InstallRequest, 'scope' | 'ctx'>): Plan {
  const target = targetOf(spec, req);
  if (typeof target !== 'string') return target;
  const files =
    spec.format === 'json' || spec.format === 'toml' || spec.format === 'plugin'
      ? [target]
      : spec.events.map((m) => join(target, m.native));
  const changes: FileChange[] = [];
  for (const file of files) {
    const before = readOr(file);
    if (before === undefined) continue;
    let after: string | undefined;
    if (spec.format === 'json') after = removeEntries(before);
    else if (spec.format === 'toml') after = removeBlock(before);
    else after = before.includes(PLUGIN_MARK) ? undefined : before;
    if (after !== before) changes.push({ file, before, after });
  }
  return { changes, target };
}

/** Whether our lines are in the agent's config of a scope: `all` (every event), `some`, or `none`. */
export function installedState(
  spec: InstallSpec,
  req: Pick<InstallRequest, 'scope' | 'ctx'>,
): { target: string; state: 'all' | 'some' | 'none' } | { error: string } {
  const target = targetOf(spec, req);
  if (typeof target !== 'string') return target;
  const count = (n: number, of: number) => ({
    target,
    state: n === 0 ? ('none' as const) : n >= of ? ('all' as const) : ('some' as const),
  });
  if (spec.format === 'plugin') return count(readOr(target)?.includes(PLUGIN_MARK) ? 1 : 0, 1);
  if (spec.format === 'hooks-dir') {
    const names = existsSync(target) ? readdirSync(target) : [];
    return count(
      spec.events.filter((m) => names.includes(m.native) && readOr(join(target, m.native))?.includes(PLUGIN_MARK)).length,
      spec.events.length,
    );
  }
  const text = readOr(target) ?? '';
  if (spec.format === 'toml') return count(text.split(INSTALLED_MARK).length - 1, spec.events.length);
  const doc = parse(text, [], { allowTrailingComma: true }) as unknown;
  const hooks = isObject(doc) && isObject(doc.hooks) ? doc.hooks : {};
  return count(
    spec.events.filter((m) => Array.isArray(hooks[m.native]) && (hooks[m.native] as unknown[]).some(isInstalledEntry)).length,
    spec.events.length,
  );
}
