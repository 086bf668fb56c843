/**
 * The user's home and the temporary directory, as `node:os` gives them, without loading
 * `node:os` on the path where it is not needed: loading it costs ~0.4 ms of every dispatch here,
 * and a dispatch needs only the home, which on POSIX is $HOME whenever it is set.
 */
import { createRequire } from 'node:module';

// In the CLI's CommonJS bundles this is the loader's own createRequire (scripts/bundle-dispatch.mjs).
const require = createRequire(import.meta.url);

let os: typeof import('node:os') | undefined;
const nodeOs = () => (os ??= require('node:os') as typeof import('node:os'));

/**
 * `os.homedir()`. On POSIX it returns $HOME whenever the variable is set, even empty, and asks
 * the user database only when it is not (libuv's uv_os_homedir); that first step needs no
 * `node:os`. Windows reads other variables: it always asks `node:os`. One difference: $HOME is
 * read from `process.env`, so a worker thread started with an `env` of its own sees that env's
 * home, where `os.homedir()` reads the process's. The engine's home lookups (settings, engine
 * state, trust, sessions, serve, the host's permissions) all go through here, so they agree.
 */
export function userHome(): string {
  if (process.platform !== 'win32') {
    const home = process.env.HOME;
    if (home !== undefined) return home;
  }
  return nodeOs().homedir();
}

/** `os.tmpdir()`, loaded when first asked for (spilling a long output, an env file). */
export function tempDir(): string {
  return nodeOs().tmpdir();
}
