/**
 * `agent-hooks run EVENT …` without commander and the command table: dist/cli/bin.cjs routes
 * `run` here first (from the bundle scripts/bundle-dispatch.mjs makes) so that a hook author's
 * edit-run loop starts about as cheaply as `dispatch`.
 *
 * This entry accepts only what it can read exactly as the full CLI would: one exact event name
 * and the options of `run` spelled out, each at most once. Anything else — help, version, an
 * unknown or repeated option, a value that looks like an option, a misspelt event, `--` — is
 * declined (undefined), and bin.cjs hands the arguments to the full CLI, which parses, suggests and
 * prints its usual errors. Declining happens before any hook runs.
 */
import { parseArgs } from 'node:util';
import type { RunFlags } from './run.js';

/** `run`'s options in the full CLI (src/cli/main.ts), with their types; a test keeps the two equal. */
export const RUN_OPTIONS = {
  settings: { type: 'string', multiple: true },
  plugin: { type: 'string', multiple: true },
  cwd: { type: 'string' },
  discover: { type: 'boolean' },
  'discover-dialects': { type: 'string' },
  'managed-settings': { type: 'string' },
  // Added to `run` by src/cli/commands/convert.ts.
  dialect: { type: 'string' },
  payload: { type: 'string' },
  tool: { type: 'string' },
  input: { type: 'string' },
  prompt: { type: 'string' },
  response: { type: 'string' },
  'stop-active': { type: 'boolean' },
  source: { type: 'string' },
  trigger: { type: 'string' },
  message: { type: 'string' },
  example: { type: 'boolean' },
  verbose: { type: 'boolean', short: 'v' },
  'permission-mode': { type: 'string' },
  'session-id': { type: 'string' },
  audit: { type: 'string' },
  'failure-behavior': { type: 'string' },
  'timeout-behavior': { type: 'string' },
  'mcp-config': { type: 'string' },
  json: { type: 'boolean' },
} as const;

const BEHAVIORS = ['ignore', 'ask', 'deny'];

/** kebab-case option name → the camelCase key commander gives the action. */
function camel(name: string): string {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/**
 * The event name and flags, when this entry reads `args` (after `run`) exactly as the full CLI
 * would; undefined otherwise.
 */
export function readRunArgs(args: string[]): { event: string; flags: RunFlags } | undefined {
  if (args.includes('--')) return undefined;
  // A value starting with "-" is where parsers differ (commander takes it, node:util refuses it).
  for (let i = 0; i < args.length - 1; i++) {
    const name = args[i]!.startsWith('--') ? args[i]!.slice(2) : args[i] === '-v' ? 'verbose' : undefined;
    const spec = name === undefined ? undefined : (RUN_OPTIONS as Record<string, { type: string }>)[name];
    if (spec?.type === 'string' && args[i + 1]!.startsWith('-') && args[i + 1] !== '-') return undefined;
  }
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; options: typeof RUN_OPTIONS; allowPositionals: true; strict: true; tokens: true }>
  >;
  try {
    parsed = parseArgs({ args, options: RUN_OPTIONS, allowPositionals: true, strict: true, tokens: true });
  } catch {
    return undefined;
  }
  if (parsed.positionals.length !== 1) return undefined;
  // Options given twice: commander and node:util may keep different ones (repeatable ones excepted).
  const seen = new Set<string>();
  for (const t of parsed.tokens ?? []) {
    if (t.kind !== 'option') continue;
    if (seen.has(t.name) && !('multiple' in RUN_OPTIONS[t.name as keyof typeof RUN_OPTIONS])) return undefined;
    seen.add(t.name);
  }
  const flags: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(parsed.values)) if (v !== undefined) flags[camel(k)] = v;
  for (const k of ['failureBehavior', 'timeoutBehavior'])
    if (flags[k] !== undefined && !BEHAVIORS.includes(flags[k] as string)) return undefined;
  return { event: parsed.positionals[0]!, flags: flags as RunFlags };
}

/**
 * Runs `run` with `args` (after `run`) and returns the exit code, or undefined when the full CLI
 * must read these arguments instead (nothing has run then).
 */
export async function main(args: string[]): Promise<number | undefined> {
  const read = readRunArgs(args);
  if (!read) return undefined;
  const { isEventName } = await import('../events/facts.js');
  // Case-insensitive names and "did you mean" are the full CLI's.
  if (!isEventName(read.event)) return undefined;
  // As in the full CLI: a closed pipe is a normal way for output to end.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  });
  const { runCommand, RunUsageError } = await import('./run.js');
  try {
    return await runCommand(read.event, read.flags);
  } catch (err) {
    // The same two messages the full CLI prints (src/cli/main.ts).
    if (err instanceof RunUsageError) process.stderr.write(`agent-hooks: ${err.message}\n`);
    else process.stderr.write(`agent-hooks: internal error: ${(err as Error)?.stack ?? String(err)}\n`);
    return 1;
  }
}
