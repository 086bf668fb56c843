/**
 * MCP stdio client transport that owns its server as a process group.
 *
 * The SDK's StdioClientTransport spawns the server in our own process group and signals only
 * the leader, so a server started through a wrapper (`npx`, `uvx`, a shell script) leaves its
 * real process behind on close. Here the server leads its own group: close ends stdin (the
 * polite MCP shutdown), then SIGTERMs and finally SIGKILLs the whole group, plus any
 * descendant that escaped it (found through /proc on Linux). Framing is the SDK's own
 * (ReadBuffer / serializeMessage).
 *
 * Here, in the backends stage, because every process agent-hooks starts is started by this
 * stage, with its process-group rules (./process-tree.ts). Loaded lazily, with the SDK client,
 * by the MCP client manager (src/mcp) and by `agent-hooks mcp-proxy`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { hasProcFs, listProcesses, ownedProcesses, signalEscaped, signalGroup, type ProcEntry, type ServerExit } from './process-tree.js';

export interface StdioServerProcess {
  command: string;
  args: string[];
  cwd: string;
  /** The complete environment; nothing from process.env is added. */
  env: Record<string, string>;
  /** After stdin is closed, how long the server may take to exit before SIGTERM. */
  shutdownGraceMs: number;
  /** Between SIGTERM and SIGKILL. */
  killGraceMs: number;
  /** Largest single message we buffer from the server; a bigger one closes the connection. */
  maxMessageBytes: number;
  /** Kept for error messages. */
  stderrTailBytes: number;
  onStderr?: (chunk: string) => void;
}

export type { ServerExit } from './process-tree.js';

/** After the leader exits, how long its stdout may still deliver buffered messages. */
const EXIT_FLUSH_MS = 100;
const POLL_MS = 10;
const WINDOWS = process.platform === 'win32';

export class ProcessGroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** Set once the server process has exited. */
  exit?: ServerExit;
  /** Why we dropped the connection ourselves (a protocol violation), if we did. */
  dropReason?: string;
  private child?: ChildProcess;
  private readonly buffer: ReadBuffer;
  private tail = '';
  private finished = false;
  private closing?: Promise<void>;
  private exited?: Promise<void>;

  constructor(private readonly spec: StdioServerProcess) {
    this.buffer = new ReadBuffer({ maxBufferSize: spec.maxMessageBytes });
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The last bytes the server wrote to stderr. */
  get stderrTail(): string {
    return this.tail;
  }

  start(): Promise<void> {
    if (this.child) return Promise.reject(new Error('transport already started'));
    const { spec } = this;
    // spawn reports a missing cwd as "spawn <command> ENOENT", which blames the command.
    try {
      if (!statSync(spec.cwd).isDirectory()) return Promise.reject(new Error(`working directory ${spec.cwd} is not a directory`));
    } catch {
      return Promise.reject(new Error(`working directory ${spec.cwd} does not exist`));
    }
    return new Promise((resolve, reject) => {
      let child: ChildProcess;
      try {
        child = spawn(spec.command, spec.args, {
          cwd: spec.cwd,
          env: spec.env,
          stdio: ['pipe', 'pipe', 'pipe'],
          detached: !WINDOWS, // own process group, so close reaches the whole tree
          windowsHide: true,
        });
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
        return;
      }
      this.child = child;
      let spawned = false;
      this.exited = new Promise<void>((done) => {
        child.once('exit', (code, signal) => {
          this.exit = { code, signal };
          done();
        });
      });
      child.once('error', (err: NodeJS.ErrnoException) => {
        if (!spawned) {
          const hint = err.code === 'ENOENT' ? `command "${spec.command}" not found` : err.message;
          reject(new Error(hint));
          this.finish();
        } else {
          this.onerror?.(err);
        }
      });
      child.once('spawn', () => {
        spawned = true;
        resolve();
      });
      child.stdin?.on('error', (err) => this.onerror?.(err)); // EPIPE when the server died
      child.stdout?.on('data', (chunk: Buffer) => this.onStdout(chunk));
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (chunk: string) => {
        this.tail = (this.tail + chunk).slice(-spec.stderrTailBytes);
        spec.onStderr?.(chunk);
      });
      // The leader is gone: give stdout a moment to deliver what it wrote, then report the close.
      // A grandchild holding stdout must not keep the connection half-alive.
      child.once('exit', () => {
        if (this.closing) return;
        const flushed = new Promise<void>((done) => child.once('close', () => done()));
        void raceTimer(flushed, EXIT_FLUSH_MS).then(() => {
          if (this.closing) return;
          // Whatever the server left in its group dies with it.
          this.closing = this.terminateGroup(true).then(() => this.finish());
        });
      });
    });
  }

  /** Frame what the server wrote into messages; an oversized message drops the connection. */
  private onStdout(chunk: Buffer): void {
    try {
      this.buffer.append(chunk);
    } catch (err) {
      this.dropReason = `sent a message larger than ${this.spec.maxMessageBytes} bytes`;
      this.onerror?.(err as Error);
      void this.close();
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (err) {
        this.onerror?.(err as Error); // a non-JSON-RPC line: skip it
        continue;
      }
      if (message === null) break;
      this.onmessage?.(message);
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || stdin.destroyed || !stdin.writable || this.closing || this.exit) {
        reject(new Error('MCP server is not running'));
        return;
      }
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown().then(() => this.finish());
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    const child = this.child;
    if (!child || child.pid === undefined) return;
    if (!this.exit) {
      try {
        child.stdin?.end();
      } catch {
        // already closed
      }
      if (await this.waitExit(this.spec.shutdownGraceMs)) {
        await this.terminateGroup(true);
        return;
      }
    }
    await this.terminateGroup(false);
  }

  /**
   * SIGTERM, grace, SIGKILL for everything the server owns. `leaderDone`: the leader already
   * exited, only leftovers in its group (or escaped descendants) remain.
   */
  private async terminateGroup(leaderDone: boolean): Promise<void> {
    const child = this.child;
    const pid = child?.pid;
    if (!child || pid === undefined) return;
    if (WINDOWS) {
      if (!this.exit) child.kill();
      await this.waitExit(this.spec.killGraceMs);
      if (!this.exit) child.kill('SIGKILL');
      return;
    }
    // Snapshot the tree while parent links still lead to escaped descendants.
    const owned: ProcEntry[] = hasProcFs() ? ownedProcesses(pid) : [];
    if (leaderDone && hasProcFs() && owned.length === 0) return;
    signalGroup(pid, 'SIGTERM');
    signalEscaped(owned, pid, 'SIGTERM');
    const gone = () => (this.exit !== undefined || leaderDone) && (!hasProcFs() || liveOwned(pid, owned) === 0);
    if (!(await waitFor(gone, this.spec.killGraceMs))) {
      signalGroup(pid, 'SIGKILL');
      signalEscaped(owned, pid, 'SIGKILL');
      await this.waitExit(this.spec.killGraceMs);
    }
  }

  private async waitExit(ms: number): Promise<boolean> {
    if (this.exit || !this.exited) return true;
    await raceTimer(this.exited, ms);
    return this.exit !== undefined;
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.buffer.clear();
    this.child?.stdout?.destroy();
    this.child?.stderr?.destroy();
    this.child?.stdin?.destroy();
    this.onclose?.();
  }
}

function liveOwned(pgid: number, snapshot: readonly ProcEntry[]): number {
  const all = listProcesses();
  const byPid = new Map(all.map((p) => [p.pid, p]));
  let n = 0;
  for (const p of all) if (p.pgid === pgid && p.state !== 'Z' && p.state !== 'X') n++;
  for (const e of snapshot) {
    if (e.pgid === pgid) continue;
    const now = byPid.get(e.pid);
    if (now && now.start === e.start && now.state !== 'Z' && now.state !== 'X') n++;
  }
  return n;
}

/** Wait for `p` or `ms`, whichever is first; the timer is cleared so it never holds the process open. */
function raceTimer(p: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void p.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  for (;;) {
    if (check()) return true;
    if (Date.now() >= end) return false;
    await delay(POLL_MS);
  }
}
