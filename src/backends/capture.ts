/**
 * A hook's stdout or stderr as the command backend keeps it: the first `maxOutputBytes`, and
 * the rest read to the end so that a full pipe never blocks the hook; and its stdin written.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/** Bounded capture of one output stream; bytes past the cap are read and dropped. */
export class Capture {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  truncated = false;
  /** Bytes read and dropped past the cap. */
  dropped = 0;

  constructor(private readonly max: number) {}

  push(chunk: Buffer): void {
    const room = this.max - this.size;
    if (chunk.length <= room) {
      this.chunks.push(chunk);
      this.size += chunk.length;
      return;
    }
    if (room > 0) {
      this.chunks.push(chunk.subarray(0, room));
      this.size = this.max;
    }
    this.dropped += chunk.length - Math.max(0, room);
    this.truncated = true;
  }

  /** UTF-8 with U+FFFD for invalid bytes; a character cut by the cap is dropped, not mangled. */
  text(): string {
    const decoder = new StringDecoder('utf8');
    const text = decoder.write(Buffer.concat(this.chunks, this.size));
    return this.truncated ? text : text + decoder.end();
  }
}

/** How far past the cap a stream is read here before it is handed off: a small overflow costs no fork. */
export const HAND_OFF_PAST_CAP_BYTES = 1024 * 1024;

/**
 * The drainer: `cat` reading the pipe to /dev/null, started as
 * `sh -c 'trap "" INT QUIT TERM HUP; exec setpriv --pdeathsig KILL -- cat'`.
 * - `sh` ignores the signals a host may catch and live through (a Ctrl-C that cancels a turn, a
 *   SIGTERM that starts a graceful stop), and an ignored signal stays ignored across exec: such a
 *   signal sent to our process group must not end the drainer and with it, by SIGPIPE, the hook,
 *   which its own session keeps away from them.
 * - `setpriv --pdeathsig` has the kernel kill the drainer when its parent, this process, dies,
 *   however it dies: a hook still flooding its pipe then dies of SIGPIPE, as it did when the
 *   engine read the pipe itself.
 * Fixed paths, never a PATH (one holding a project's own `cat` could hold the hook's output, or
 * block it). Where one is missing, there is no drainer and the engine reads on itself.
 */
let candidate: readonly string[] | null | undefined;
export function drainerCandidate(): readonly string[] | null {
  if (candidate === undefined) {
    const executable = (file: string) => {
      try {
        accessSync(file, constants.X_OK);
        return true;
      } catch {
        return false;
      }
    };
    const cat = ['/bin/cat', '/usr/bin/cat'].find(executable);
    const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find(executable);
    candidate =
      cat && setpriv && executable('/bin/sh')
        ? ['/bin/sh', '-c', 'trap "" INT QUIT TERM HUP; exec "$0" --pdeathsig KILL -- "$1"', setpriv, cat]
        : null;
  }
  return candidate;
}

/**
 * The drainer, once it was seen to work here: run once on an empty input, it must end with status
 * 0 (a setpriv older than util-linux 2.33 has no --pdeathsig, and a drainer that fails at once
 * would leave the hook a closed pipe). Tried once per process, on the first hand-off.
 */
let checked: readonly string[] | null | undefined;
export function drainerCommand(): readonly string[] | null {
  if (checked === undefined) {
    const argv = drainerCandidate();
    const works = argv ? worksOnEmptyInput(argv) : false;
    if (works === undefined) return null; // not started this time (EAGAIN, ENOMEM): ask again next time
    checked = works ? argv : null;
  }
  return checked;
}

/**
 * Run a drainer on /dev/null: whether it ended with status 0, or undefined where it could not be
 * started. The kill is SIGKILL because the drainer ignores SIGTERM, the default; a run that had to
 * be killed (2 s, where it takes ~2 ms) does not work. The spawner helper does the same.
 */
function worksOnEmptyInput(argv: readonly string[]): boolean | undefined {
  let r: ReturnType<typeof spawnSync>;
  try {
    r = spawnSync(argv[0]!, argv.slice(1), { stdio: 'ignore', cwd: '/', env: {}, timeout: 2000, killSignal: 'SIGKILL' });
  } catch {
    return undefined;
  }
  const code = (r.error as NodeJS.ErrnoException | undefined)?.code;
  if (r.error && code !== 'ETIMEDOUT' && code !== 'ENOENT' && code !== 'EACCES') return undefined;
  return !r.error && r.status === 0;
}

/**
 * For tests: the drainer to start (null: none; undefined: find it again), taken as tried, or with
 * `{ untried: true }` to be tried on its first use as a found one is.
 */
export function useDrainer(argv: readonly string[] | null | undefined, opts: { untried?: boolean } = {}): void {
  candidate = argv;
  checked = opts.untried ? undefined : argv;
}

/** Drainers still running, ended if this process exits first: a hook's flood must not outlive us in a cat. */
const live = new Set<ChildProcess>();
let killOnExit = false;
function killLive(): void {
  for (const drainer of live) drainer.kill('SIGKILL');
}

/**
 * Give the rest of a hook's output pipe to the drainer, and close our end. Node reads a pipe into
 * a fresh 64 KiB buffer each time and frees those only when a collection comes, so reading a flood
 * just to drop it grew the engine by some 33 MiB (docs/performance.md, "Flood memory"); handed
 * off, the engine holds the cap and what it read past it. The hook is not slowed: cat reads
 * faster than Node does. The caller counts the drainer's exit with status 0 (cat saw the end of
 * the pipe: every writer closed it) as the stream's end, and kills it when the run ends.
 *
 * Returns undefined, with the stream reading again, where no drainer can be started: the caller
 * reads on itself.
 */
export function drainToCat(stream: Readable): ChildProcess | undefined {
  const argv = drainerCommand();
  if (!argv) return undefined;
  let drainer: ChildProcess;
  try {
    // The pipe's descriptor is duplicated into the drainer; cwd '/' keeps no directory of the hook's busy.
    drainer = spawn(argv[0]!, argv.slice(1), { stdio: [stream, 'ignore', 'ignore'], cwd: '/', env: {} });
  } catch {
    readOn(stream);
    return undefined;
  }
  drainer.on('error', () => {});
  if (drainer.pid === undefined) {
    readOn(stream); // not started ('error' follows, ignored)
    return undefined;
  }
  // In the same tick as the spawn, so our end reads nothing more.
  stream.destroy();
  if (!killOnExit) {
    killOnExit = true;
    process.on('exit', killLive);
  }
  live.add(drainer);
  drainer.on('close', () => live.delete(drainer));
  return drainer;
}

/**
 * Read on after a failed hand-off. The child libuv forked made the pipe blocking for itself
 * before its exec failed, and the flag belongs to the pipe, ours too: a blocking read here would
 * stall the whole event loop (timeouts included) while the hook is quiet. Node also paused the
 * stream for the child.
 */
function readOn(stream: Readable): void {
  (stream as unknown as { _handle?: { setBlocking?: (blocking: boolean) => number } })._handle?.setBlocking?.(false);
  stream.resume();
}

/**
 * The payload to a hook's stdin, with stack traces off: a hook that exited first gives an EPIPE
 * (the caller ignores it) whose `stack` Node's stream reads, and formatting it scans every script
 * on the stack for its line ends, ~4 M instructions of a one-hook dispatch (docs/performance.md,
 * "The last figure").
 */
export function writeStdin(stdin: { end(data: string | Buffer): void }, payload: string | Buffer): void {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    stdin.end(payload);
  } finally {
    Error.stackTraceLimit = limit;
  }
}
