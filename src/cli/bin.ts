#!/usr/bin/env node
/**
 * The `agent-hooks` executable. `dispatch` runs inside other agents' hook configs on every
 * event, so it is routed before anything else loads (no commander, no zod, no engine until a
 * hook may run) to keep its cold start near `node -e 0`; `run`, the hook author's loop, is
 * routed the same way to a lean entry that declines what it cannot read exactly (src/cli/run-entry.ts),
 * and then the full CLI takes the arguments. Both run from the bundle the build makes
 * (scripts/bundle-dispatch.mjs), or from the plain modules when there is none. Every other
 * command loads the full CLI.
 */
const args = process.argv.slice(2);
if (args[0] === 'dispatch' && !args.includes('--help') && !args.includes('-h')) {
  const { main } = await loadEntry<typeof import('./dispatch.js')>('dispatch');
  process.exitCode = await main(args.slice(1));
} else {
  const code = args[0] === 'run' ? await (await loadEntry<typeof import('./run-entry.js')>('run-entry')).main(args.slice(1)) : undefined;
  if (code !== undefined) process.exitCode = code;
  else {
    const { main } = await import('./main.js');
    await main(process.argv);
  }
}

async function loadEntry<T>(name: 'dispatch' | 'run-entry'): Promise<T> {
  // Variable specifiers: the bundle is a build output tsc does not see.
  const bundled = name === 'dispatch' ? './bundle/dispatch.js' : './bundle-run/run-entry.js';
  try {
    return (await import(bundled)) as T;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw err;
    return (await import(`./${name}.js`)) as T;
  }
}
