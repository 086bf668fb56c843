/**
 * Claude Code's configuration directory: `$CLAUDE_CONFIG_DIR` when set (as Claude Code reads it),
 * else `<home>/.claude`. Kept free of other imports: the lean dispatch path uses it too.
 */
import { join, resolve } from 'node:path';

/**
 * `homeDir` given explicitly (tests, embedders) means that home's `.claude`, unless
 * `configDir` is given too; only the implicit home defers to the environment.
 */
export function claudeConfigDir(opts: { homeDir?: string; configDir?: string; env?: NodeJS.ProcessEnv; defaultHome: string }): string {
  if (opts.configDir !== undefined) return resolve(opts.configDir);
  const fromEnv = (opts.env ?? process.env).CLAUDE_CONFIG_DIR;
  if (opts.homeDir === undefined && typeof fromEnv === 'string' && fromEnv !== '') return resolve(fromEnv);
  return join(opts.homeDir ?? opts.defaultHome, '.claude');
}
