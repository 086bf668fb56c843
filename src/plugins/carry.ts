/**
 * How a plugin agent's plugin hands one hook call to the engine: `agent-hooks dispatch --agent D`,
 * run in the agent's own process (the default: Pi runs on Node, OpenCode and Kilo on Bun, and the
 * library loads in both) or spawned as the CLI (`via: 'dispatch'`). Either way the same dispatch
 * decodes the payload, runs the engine (the one door) and prints D's answer
 * (src/agents/shared/plugin-wire.ts); this module only reads it. Whatever stops an answer from
 * coming back (dispatch throws, the CLI is gone, crashes or prints garbage) is returned as an
 * error, and the plugin does not let the call through.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readPluginAnswer, type PluginAnswer } from '../agents/shared/plugin-wire.js';
import type { DispatchOutput } from '../agents/types.js';

export type { PluginAnswer };

export interface PluginOptions {
  /** Engine settings files (Claude format); none: the hooks Claude Code's own files hold, as `dispatch` finds them. */
  settings?: string[];
  /** `in-process` (default): the library in the agent's runtime; `dispatch`: one CLI process per call. */
  via?: 'in-process' | 'dispatch';
  /** For `via: 'dispatch'`: the Node binary (default: this process's when it is Node, else `node` on PATH). */
  node?: string;
}

export type Answer = PluginAnswer | { error: string };
/** One hook call (the agent's payload, Claude-shaped with its own names) → the answer, never throwing. */
export type Carrier = (payload: Record<string, unknown>) => Promise<Answer>;

/** The CLI next to this module (dist/plugins/ → dist/cli/bin.cjs). */
const CLI = fileURLToPath(new URL('../cli/bin.cjs', import.meta.url));

export function carrier(agent: 'opencode' | 'kilo' | 'pi', cwd: string, opts: PluginOptions = {}): Carrier {
  const settings = (opts.settings ?? []).map((s) => resolve(cwd, s));
  const run = opts.via === 'dispatch' ? spawned(agent, cwd, settings, opts.node) : inProcess(agent, cwd, settings);
  return async (payload) => {
    try {
      return readPluginAnswer(await run(JSON.stringify(payload)));
    } catch (err) {
      return { error: `agent-hooks could not run: ${(err as Error)?.message ?? String(err)}` };
    }
  };
}

function inProcess(agent: string, cwd: string, settings: string[]): (stdin: string) => Promise<DispatchOutput> {
  return async (stdin) => {
    const { dispatch } = await import('../dispatch/dispatch.js');
    return dispatch({ agent, cwd, ...(settings.length ? { settings } : {}) }, stdin);
  };
}

function spawned(agent: string, cwd: string, settings: string[], node?: string): (stdin: string) => Promise<DispatchOutput> {
  // Under Bun, process.execPath is the agent's own binary, not a Node.
  const bin = node ?? (process.versions.bun ? 'node' : process.execPath);
  const args = [CLI, 'dispatch', '--agent', agent, '--cwd', cwd, ...settings.flatMap((s) => ['--settings', s])];
  return (stdin) =>
    new Promise((done, fail) => {
      const child = spawn(bin, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => {
        stdout += c;
      });
      child.stderr.setEncoding('utf8').on('data', (c: string) => {
        stderr += c;
      });
      child.on('error', fail);
      child.on('close', (code, signal) => done({ stdout, stderr: signal ? `${stderr}killed by ${signal}` : stderr, exitCode: code ?? 1 }));
      child.stdin.on('error', () => {}); // a child that exits before reading: its exit code says it
      child.stdin.end(stdin);
    });
}
