/**
 * A hook's stdout or stderr as the command backend keeps it: the first `maxOutputBytes`, and
 * the rest read to the end so that a full pipe never blocks the hook.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/** Bounded capture of one output stream; bytes past the cap are read and dropped. */
export class Capture {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  truncated = false;

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
    this.truncated = true;
  }

  /** UTF-8 with U+FFFD for invalid bytes; a character cut by the cap is dropped, not mangled. */
  text(): string {
    const decoder = new StringDecoder('utf8');
    const text = decoder.write(Buffer.concat(this.chunks, this.size));
    return this.truncated ? text : text + decoder.end();
  }
}

/**
 * Give the rest of a hook's output pipe to `cat`, which reads it to /dev/null, and close our end.
 * Node reads a pipe into a fresh 64 KiB buffer each time and frees those only when a collection
 * comes, so reading a flood just to drop it grew the engine by some 33 MiB (docs/performance.md,
 * "Flood memory"); handed off, what the engine holds is the cap plus one chunk. The hook is not
 * slowed: cat reads faster than Node does. The caller counts the drainer's exit as the stream's
 * end (every writer closed the pipe) and kills it when the run ends.
 *
 * Returns undefined, with the stream reading again, where `cat` cannot be started: the caller
 * reads on itself.
 */
export function drainToCat(stream: Readable): ChildProcess | undefined {
  let drainer: ChildProcess;
  try {
    // The pipe's descriptor is duplicated into cat (libuv makes it blocking there, as cat expects).
    // cat from our own PATH, not the hook's; cwd '/' so it keeps no directory of the hook's busy.
    drainer = spawn('cat', [], {
      stdio: [stream, 'ignore', 'ignore'],
      cwd: '/',
      env: process.env.PATH === undefined ? {} : { PATH: process.env.PATH },
    });
  } catch {
    return undefined;
  }
  drainer.on('error', () => {});
  if (drainer.pid === undefined) {
    // Not started ('error' follows, ignored). Node stopped our reading for the child all the
    // same: start it again.
    stream.resume();
    return undefined;
  }
  // In the same tick as the spawn, so our end reads nothing more.
  stream.destroy();
  return drainer;
}
