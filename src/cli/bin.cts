#!/usr/bin/env node
/**
 * The `agent-hooks` executable. `dispatch` runs inside other agents' hook configs on every
 * event, so it is routed before anything else loads (no commander, no zod, no engine until a
 * hook may run) to keep its cold start near `node -e 0`; `run`, the hook author's loop, is
 * routed the same way to a lean entry that declines what it cannot read exactly (src/cli/run-entry.ts),
 * and then the full CLI takes the arguments. Every other command loads the full CLI.
 *
 * CommonJS, unlike the rest of the package: Node starts a CommonJS entry without its ES loader,
 * and the bundles dispatch and `run` load are CommonJS files (scripts/bundle-dispatch.mjs), so
 * neither starts the ES loader for our code. Both fall back to the plain modules when the build
 * made no bundle.
 */
const args = process.argv.slice(2);

type Main = (argv: string[]) => Promise<number | undefined>;

/** dispatch's CommonJS no-hooks check, or the plain module when there is no bundle. */
async function dispatchEntry(): Promise<Main> {
  try {
    return (require('./bundle-check/dispatch.cjs') as { main: Main }).main;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND' || !String((err as Error).message).includes('bundle-check')) throw err;
    return ((await import('./dispatch.js')) as { main: Main }).main;
  }
}

/** `run`'s lean entry, bundled as CommonJS, or the plain module when there is no bundle. */
async function runEntry(): Promise<Main> {
  try {
    return (require('./bundle-run/run-entry.js') as { main: Main }).main;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND' || !String((err as Error).message).includes('bundle-run')) throw err;
    return ((await import('./run-entry.js')) as { main: Main }).main;
  }
}

async function main(): Promise<void> {
  // Both run in a fresh process per event or per try: their files compile from a code cache.
  if (args[0] === 'dispatch' || args[0] === 'run')
    (require('./code-cache.cjs') as typeof import('./code-cache.cjs')).useCodeCache(`${__dirname}/..`);
  if (args[0] === 'dispatch' && !args.includes('--help') && !args.includes('-h')) {
    process.exitCode = (await (await dispatchEntry())(args.slice(1))) ?? 0;
    return;
  }
  const code = args[0] === 'run' ? await (await runEntry())(args.slice(1)) : undefined;
  if (code !== undefined) {
    process.exitCode = code;
    return;
  }
  const cli = (await import('./main.js')) as { main: (argv: string[]) => Promise<void> };
  await cli.main(process.argv);
}

void main();
