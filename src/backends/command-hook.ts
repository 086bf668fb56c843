/** The built-in command backend: placeholders, minimal env, capped stdin, process-group lifecycle. */
import type { CommandHandler } from '../types.js';
import { runCommand } from './command.js';
import { buildHookEnv, substituteForShell, substitutePlaceholders } from './env.js';
import { encodePayload } from './payload.js';
import type { Backend } from './types.js';

/** The engine options the command backend reads (HookEngineOptions of the same names). */
export interface CommandBackendOptions {
  passEnv?: readonly string[];
  killGraceMs?: number;
  spawner?: boolean;
}

export function commandBackend(options: CommandBackendOptions): Backend {
  return async (hook, payload, ctx) => {
    const handler = hook.handler as CommandHandler;
    const vars = {
      CLAUDE_PROJECT_DIR: ctx.projectDir,
      CLAUDE_PLUGIN_ROOT: hook.source.pluginRoot ?? hook.source.skillRoot,
      CLAUDE_PLUGIN_DATA: hook.source.pluginData,
    };
    const stdin = encodePayload(payload, ctx.stdinLimitBytes);
    const env = buildHookEnv({
      sessionEnv: ctx.sessionEnv,
      passEnv: options.passEnv,
      hookEnv: handler.env,
      projectDir: ctx.projectDir,
      pluginRoot: vars.CLAUDE_PLUGIN_ROOT,
      pluginData: vars.CLAUDE_PLUGIN_DATA,
      envFile: ctx.envFile,
    });
    const result = await runCommand({
      // Shell form: a path with shell metacharacters is left as ${VAR} for the shell to expand
      // from the environment, so a project directory name can never inject a command.
      command: handler.args
        ? substitutePlaceholders(handler.command, vars)
        : substituteForShell(handler.command, vars, handler.shell ?? 'sh'),
      args: handler.args?.map((a) => substitutePlaceholders(a, vars)),
      shell: handler.shell,
      cwd: ctx.cwd,
      env,
      stdin: stdin.text,
      timeoutMs: ctx.timeoutMs,
      killGraceMs: options.killGraceMs,
      spawner: options.spawner ?? true,
      maxOutputBytes: ctx.outputLimitBytes,
      signal: ctx.signal,
    });
    return stdin.truncated ? { ...result, stdinTruncated: true } : result;
  };
}
