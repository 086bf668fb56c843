/** The built-in command backend: placeholders, minimal env, capped stdin, process-group lifecycle. */
import { isAbsolute, join } from 'node:path';
import type { CommandHandler, ExecutionResult } from '../types.js';
import { runDeclarable } from './async-declaration.js';
import { runCommand } from './command.js';
import { resolveTarget } from './command-target.js';
import { sandboxed, sandboxFault, sandboxSpec, type SandboxKind } from './sandbox.js';
import { type Copies, settleCopies } from './sandbox-copies.js';
import { buildHookEnv, substitutePlaceholders, type PlaceholderVars } from './env.js';
import { encodeHookPayload } from './payload.js';
import { makeResult } from './result.js';
import type { Backend } from './types.js';

/** The engine options the command backend reads (HookEngineOptions of the same names). */
export interface CommandBackendOptions {
  passEnv?: readonly string[];
  killGraceMs?: number;
  spawner?: boolean;
  /** HookEngineOptions.sandbox: run command hooks under bubblewrap (sandbox.ts). */
  sandbox?: SandboxKind;
  /** HookEngineOptions.waitForAsyncDeclaration. */
  waitForAsyncDeclaration?: boolean;
}

export function commandBackend(options: CommandBackendOptions): Backend {
  return async (hook, payload, ctx) => {
    const handler = hook.handler as CommandHandler;
    const vars = {
      CLAUDE_PROJECT_DIR: ctx.projectDir,
      CLAUDE_PLUGIN_ROOT: hook.source.pluginRoot ?? hook.source.skillRoot,
      CLAUDE_PLUGIN_DATA: hook.source.pluginData,
    };
    const command = handler.args ? substitutePlaceholders(handler.command, vars) : await shellCommand(handler, vars);
    if (typeof command !== 'string') return command;
    const stdin = encodeHookPayload(payload, ctx.stdinLimitBytes);
    // Never a shortened command or file content: not run, the engine's failure (fails closed where it can block).
    if (stdin.refused !== undefined) return makeResult({ status: 'error', error: stdin.refused, engineFault: true });
    const env = buildHookEnv({
      sessionEnv: ctx.sessionEnv,
      passEnv: options.passEnv,
      hookEnv: handler.env,
      projectDir: ctx.projectDir,
      pluginRoot: vars.CLAUDE_PLUGIN_ROOT,
      pluginData: vars.CLAUDE_PLUGIN_DATA,
      envFile: ctx.envFile,
    });
    // A reviewed hook's Python keeps its bytecode outside the workspace: a `.pyc` there stamped as a
    // pinned module's source would run in its place, and a first run writing `__pycache__` into a
    // pinned tree would change it (test/guard/python-bytecode.test.ts). The hook's own env may say otherwise.
    if (hook.verify && handler.env?.PYTHONPYCACHEPREFIX === undefined) env.PYTHONPYCACHEPREFIX = pythonCacheDir(env);
    const args = handler.args?.map((a) => substitutePlaceholders(a, vars));
    const sandbox = sandboxSpec(options.sandbox, ctx);
    // Sandboxed: the resolved shell or program runs as bwrap's exec-form command.
    let target: { command: string; args?: string[]; shell?: typeof handler.shell; inputs?: Buffer[] } = {
      command,
      args,
      shell: handler.shell,
    };
    let copies: Copies | undefined;
    let note: string | undefined;
    if (sandbox) {
      const inner = resolveTarget({ ...target, cwd: ctx.cwd, env, stdin: '', timeoutMs: 0 });
      const outer = 'error' in inner ? inner : sandboxed(inner, sandbox, ctx.cwd, ctx.served);
      if ('error' in outer) return makeResult({ status: 'error', error: outer.error, engineFault: true });
      target = { command: outer.file, args: outer.args, ...(outer.inputs ? { inputs: outer.inputs } : {}) };
      copies = outer.copies;
      note = outer.note;
    }
    // The declaration is Claude Code's convention: a dialect's hook is not read for it.
    const run = hook.bridge || options.waitForAsyncDeclaration ? runCommand : runDeclarable;
    const result = await run({
      ...target,
      cwd: ctx.cwd,
      env,
      stdin: stdin.text,
      timeoutMs: ctx.timeoutMs,
      killGraceMs: options.killGraceMs,
      spawner: options.spawner ?? true,
      maxOutputBytes: ctx.outputLimitBytes,
      signal: ctx.signal,
    });
    const settle = (r: ExecutionResult, ended: boolean): ExecutionResult => {
      let checked = sandbox ? sandboxFault(r, sandbox.kind) : r;
      // Once the hook and all it started ended: what it created in the view's copies is put in place.
      if (copies && ended) checked = withCopiesSettled(checked, copies);
      if (note) checked = { ...checked, warnings: [...(checked.warnings ?? []), note] };
      return stdin.truncated ? { ...checked, stdinTruncated: true } : checked;
    };
    return result.background
      ? { ...settle(result, false), background: result.background.then((r) => settle(r, true)) }
      : settle(result, true);
  };
}

/**
 * Shell form: a path with shell metacharacters is left as ${VAR} for the shell to expand from the
 * environment, so a project directory name can never inject a command. Placing a placeholder
 * needs the shell parser, loaded only when the command holds one (without one, substituteForShell
 * returns the command unchanged); if it cannot load, the hook does not run and fails with the reason,
 * closed on events that can block (`engineFault`: a broken install is not the hook's failure).
 */
async function shellCommand(handler: CommandHandler, vars: PlaceholderVars): Promise<string | ExecutionResult> {
  if (!handler.command.includes('${CLAUDE_')) return handler.command;
  try {
    const { substituteForShell } = await import('./shell-placeholders.js');
    return substituteForShell(handler.command, vars, handler.shell ?? 'sh');
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return makeResult({
      status: 'error',
      error: `cannot substitute the \${CLAUDE_…} placeholders: the shell parser did not load (${why})`,
      engineFault: true,
    });
  }
}

/**
 * `~/.cache/agent-hooks/pycache` of the hook's HOME (the hook environment has no XDG_CACHE_HOME).
 * Without an absolute HOME, a path that can never exist: no bytecode cache at all, never the workspace's.
 */
function pythonCacheDir(env: Record<string, string>): string {
  return env.HOME && isAbsolute(env.HOME) ? join(env.HOME, '.cache', 'agent-hooks', 'pycache') : '/dev/null/agent-hooks-pycache';
}

/** A copy changed from outside voids the answer (the served bytes may have been unmounted); entries not kept are noted. */
function withCopiesSettled(r: ExecutionResult, copies: Copies): ExecutionResult {
  let settled: ReturnType<typeof settleCopies>;
  try {
    settled = settleCopies(copies);
  } catch (e) {
    settled = { warnings: [], changed: `the sandbox's private copies could not be settled: ${(e as Error).message}` };
  }
  const { warnings, changed } = settled;
  const noted = warnings.length ? { ...r, warnings: [...(r.warnings ?? []), ...warnings] } : r;
  return changed !== undefined ? { ...noted, status: 'error', error: changed, engineFault: true } : noted;
}
