#!/usr/bin/env node
/**
 * The `agent-hooks` executable. `dispatch` runs inside other agents' hook configs on every
 * event, so it is routed before anything else loads (no commander, no zod, no engine until a
 * hook may run) to keep its cold start near `node -e 0`. Every other command loads the full CLI.
 */
const args = process.argv.slice(2);
if (args[0] === 'dispatch' && !args.includes('--help') && !args.includes('-h')) {
  const { main } = await import('./dispatch.js');
  process.exitCode = await main(args.slice(1));
} else {
  const { main } = await import('./main.js');
  await main(process.argv);
}
