/**
 * What a command hook executes, modelled the way a shell would run it, so the digest can pin it.
 *
 * The command is first given the placeholder substitution the engine applies before running it
 * (substituteForShell / substitutePlaceholders), then parsed as Bash (unbash) and interpreted
 * symbolically:
 *
 * - variables: `CLAUDE_PROJECT_DIR`, `CLAUDE_PLUGIN_ROOT`, `CLAUDE_PLUGIN_DATA`, `HOME`, `PWD`
 *   and the hook's own `env` are known, in every spelling (`$X`, `${X}`, `"$X"`, `${X:-d}`);
 *   assignments in the command (`X=…; $X/a.sh`, `export X=…`) are tracked; an unquoted
 *   expansion is split on whitespace like the shell does; `~` and `~/…` expand to HOME;
 * - `$(pwd)` and `$(git rev-parse --show-toplevel)` are known; every other `$(…)` has an unknown
 *   value, and what it runs is modelled too;
 * - `cd` is tracked across `&&`, `||`, `;` and newlines (a `cd` into a missing directory, or in
 *   one branch of a compound command, makes the directory unknown);
 * - `sh -c`, `bash -c`, `eval` and `source` are followed; wrappers (`exec`, `env`, `nohup`,
 *   `timeout`, `nice`, `command`, `time`) are looked through;
 * - interpreters (`python3`, `node`, `bash`, `ruby`, …) pin their script argument; a directory
 *   given to one (`python3 pkg` runs `pkg/__main__.py`, `node pkg` its package main) is hashed
 *   recursively, within a size bound;
 * - `npx X` pins `node_modules/.bin/X`;
 * - globs are expanded at digest time, and the list of matches is itself recorded.
 *
 * The result: the files to pin (every executed file, plus every path-like word, as before), the
 * directories to hash as trees, extra records (glob match lists), and — when what runs cannot
 * be determined (a command name from an unknown expansion, a relative script after `cd` into an
 * unknown directory, `npm run`, a shell reading its stdin, …) — the reasons the hook is
 * *unpinned*. An unpinned hook is never silently pinned to nothing: trusting it takes an
 * explicit acknowledgement (gate.ts).
 */
import { substitutePlaceholders, type PlaceholderVars } from '../backends/env.js';
import { substituteForShell } from '../backends/shell-placeholders.js';
import type { CommandHandler } from '../types.js';
import { canonicalJson } from '../util/canonical-json.js';
import { referencedArgs, steeringAssignment, unpin, type PinContext, type Pins, type Run, type State } from './pins/model.js';
import { execArgv, modelScript } from './pins/shell.js';
import { modelIncludes } from './pins/includes.js';
import { jsIncludes, pythonIncludes } from './pins/imports.js';
import { shellIncludes } from './pins/shell-includes.js';
import { cachedWalk } from './pins/walk-cache.js';

export type { PinContext, Pins } from './pins/model.js';

/** Model what a command hook executes. Never throws. */
export function pinsOf(handler: CommandHandler, ctx: PinContext): Pins {
  // Key order differs between callers; PATH is where bare names are looked up; the process's
  // directory is there in case a relative path slips through.
  const key = canonicalJson([handler, { ...ctx, path: ctx.path ?? process.env.PATH ?? null }, process.cwd()]);
  return cachedWalk(key, () => modelPins(handler, ctx));
}

function modelPins(handler: CommandHandler, ctx: PinContext): Pins {
  const pins: Pins = { files: [], trees: [], records: {}, listed: [], unpinned: [] };
  const run: Run = { ctx, pins, seenFiles: new Set(), seenTrees: new Set(), commands: 0, scripts: [] };
  const vars: PlaceholderVars = {
    CLAUDE_PROJECT_DIR: ctx.projectDir,
    ...(ctx.pluginRoot !== undefined ? { CLAUDE_PLUGIN_ROOT: ctx.pluginRoot } : {}),
    ...(ctx.pluginData !== undefined ? { CLAUDE_PLUGIN_DATA: ctx.pluginData } : {}),
  };
  const known = new Map<string, string>([
    ['HOME', ctx.homeDir],
    ['CLAUDE_PROJECT_DIR', ctx.projectDir],
  ]);
  if (ctx.pluginRoot !== undefined) known.set('CLAUDE_PLUGIN_ROOT', ctx.pluginRoot);
  if (ctx.pluginData !== undefined) known.set('CLAUDE_PLUGIN_DATA', ctx.pluginData);
  for (const [k, v] of Object.entries(handler.env ?? {})) if (typeof v === 'string') known.set(k, v);
  const st: State = {
    cwd: ctx.cwd,
    vars: known,
    exported: new Set(known.keys()),
    functions: new Set(),
    dialect: handler.shell === 'bash' ? 'bash' : 'posix',
  };
  try {
    for (const k of Object.keys(handler.env ?? {})) steeringAssignment(run, k, "the hook's env");
    if (handler.args !== undefined) {
      // Exec form: no shell; the program and its arguments are literal after placeholders.
      const argv = [handler.command, ...handler.args].map((a) => substitutePlaceholders(a, vars));
      execArgv(run, st, argv, new Map(), [], 0);
    } else if (handler.shell === 'powershell') {
      unpin(run, 'PowerShell command lines are not modelled');
      referencedArgs(
        run,
        st,
        handler.command.split(/\s+/).map((w) => w.replace(/["']/g, '')),
      );
    } else {
      modelScript(run, st, substituteForShell(handler.command, vars, handler.shell ?? 'sh'), 0);
    }
    // What the scripts it runs load into their own interpreter: sources, imports (pins/includes.ts).
    modelIncludes(run, { shell: shellIncludes, python: pythonIncludes, js: jsIncludes });
    const executed = (run.scripts ?? []).filter((s) => s.interpreter === undefined && !s.sourced).map((s) => s.file);
    if (executed.length > 0) pins.executed = [...new Set(executed)];
  } catch (e) {
    unpin(run, `the command could not be modelled: ${(e as Error).message}`);
  }
  return pins;
}
