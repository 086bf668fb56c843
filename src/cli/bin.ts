#!/usr/bin/env node
/**
 * The `agent-hooks` executable. `dispatch` runs inside other agents' hook configs on every
 * event, so it is routed before anything else loads (no commander, no zod, no engine until a
 * hook may run) to keep its cold start near `node -e 0`; it runs from the bundle the build
 * makes (scripts/bundle-dispatch.mjs), or from the plain modules when there is none. Every
 * other command loads the full CLI.
 */
const args = process.argv.slice(2);
if (args[0] === 'dispatch' && !args.includes('--help') && !args.includes('-h')) {
  const { main } = await loadDispatch();
  process.exitCode = await main(args.slice(1));
} else {
  const { main } = await import('./main.js');
  await main(process.argv);
}

async function loadDispatch(): Promise<typeof import('./dispatch.js')> {
  // A variable specifier: the bundle is a build output tsc does not see.
  const bundled = './bundle/dispatch.js';
  try {
    return (await import(bundled)) as typeof import('./dispatch.js');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw err;
    return import('./dispatch.js');
  }
}
