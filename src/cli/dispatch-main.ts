/**
 * `dispatch`'s command line without the rest of the CLI (no commander, no engine until a hook may
 * run): what bin.cjs calls, bundled as dispatch's no-hooks check (scripts/bundle-dispatch.mjs).
 * It reads no `import.meta`, so that bundle computes no file URL at start.
 */
import { parseArgs } from 'node:util';
import { dispatchMain, type DispatchFlags } from '../dispatch/dispatch.js';

export async function main(argv: string[]): Promise<number> {
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
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
      },
      allowPositionals: false,
    }));
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
