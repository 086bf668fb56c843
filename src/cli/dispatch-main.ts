/**
 * `dispatch`'s command line without the rest of the CLI (no commander, no engine until a hook may
 * run): what bin.cjs calls, bundled as dispatch's no-hooks check (scripts/bundle-dispatch.mjs).
 * It reads no `import.meta`, so that bundle computes no file URL at start.
 */
import { parseArgs } from 'node:util';
import { dispatchMain, type DispatchFlags } from '../dispatch/dispatch.js';

/** `dispatch`'s options, as node:util's parseArgs reads them. */
export const DISPATCH_OPTIONS = {
  agent: { type: 'string' },
  event: { type: 'string' },
  settings: { type: 'string', multiple: true },
  dialect: { type: 'string' },
  plugin: { type: 'string', multiple: true },
  cwd: { type: 'string' },
  discover: { type: 'boolean' },
  'managed-settings': { type: 'string' },
  'discover-dialects': { type: 'string' },
  audit: { type: 'string' },
  remote: { type: 'string' },
  'remote-failure': { type: 'string' },
} as const;

/**
 * The options of `--agent NAME` and nothing else, the command line agents' hook configs give
 * every event, without parseArgs: Node does not load its module at start, and loading it is
 * about 0.5 ms of a dispatch that finds nothing to run (docs/performance.md, item 18). This pays
 * in the CommonJS bundle bin.cjs runs, which reads `parseArgs` off `node:util` only when it
 * calls it; an ES import of `node:util` (the plain modules) loads that module anyway. Undefined for any
 * other command line, which parseArgs reads: `--agent=NAME`, more arguments, or a NAME starting
 * with "-" (which parseArgs refuses as ambiguous). test/cli/dispatch-main.test.ts checks that
 * whatever this reads, parseArgs reads the same.
 */
export function agentOnly(argv: readonly string[]): { agent: string } | undefined {
  return argv.length === 2 && argv[0] === '--agent' && !argv[1]!.startsWith('-') ? { agent: argv[1]! } : undefined;
}

export async function main(argv: string[]): Promise<number> {
  let values: Record<string, unknown> | undefined = agentOnly(argv);
  try {
    values ??= parseArgs({ args: argv, options: DISPATCH_OPTIONS, allowPositionals: false }).values;
  } catch (err) {
    process.stderr.write(`agent-hooks dispatch: ${(err as Error).message}\n`);
    return 1;
  }
  if (typeof values.agent !== 'string') {
    process.stderr.write('agent-hooks dispatch: --agent <name> is required\n');
    return 1;
  }
  const { 'managed-settings': managedSettings, 'discover-dialects': discoverDialects, 'remote-failure': remoteFailure, ...rest } = values;
  return dispatchMain({
    ...(rest as unknown as DispatchFlags),
    ...(typeof managedSettings === 'string' ? { managedSettings } : {}),
    ...(typeof discoverDialects === 'string' ? { discoverDialects } : {}),
    ...(typeof remoteFailure === 'string' ? { remoteFailure } : {}),
  });
}
