/**
 * Command backend: run one hook process and normalize what happened into an ExecutionResult.
 *
 * Guarantees, whatever the hook does: the promise never rejects and settles by `timeoutMs +
 * killGraceMs` (a leader exiting just before the deadline gets up to 50 ms more for its output);
 * stdout and stderr are kept up to `maxOutputBytes` each and drained to the end, so a flood neither
 * blocks the hook nor grows our memory (past the cap, `cat` reads the rest: capture.ts); on timeout
 * or abort the whole process tree is killed (SIGTERM, grace, SIGKILL), descendants that left the
 * group included; a leader that exits while a descendant holds stdout/stderr does not stall us.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { nowMs } from '../util/clock.js';
import type { ExecutionResult } from '../types.js';
import { describeSpawnError, resolveTarget, type CommandSpec } from './command-target.js';
import type { HookChild } from './spawner.js';
import { Capture, HAND_OFF_PAST_CAP_BYTES, drainToCat, writeStdin } from './capture.js';
import {
  groupExists,
  hasProcFs,
  isLive,
  newRunMark,
  ownedProcesses,
  RUN_MARK_ENV,
  signalEscaped,
  signalGroup,
  type ProcEntry,
} from './process-tree.js';

const [DEFAULT_KILL_GRACE_MS, DEFAULT_EXIT_DRAIN_MS, DEFAULT_MAX_OUTPUT_BYTES] = [100, 250, 1024 * 1024];
/** How often we look whether a terminated tree is gone before the grace period ends; the least drain. */
const [EXIT_POLL_MS, MIN_DRAIN_MS] = [10, 50];
/** setTimeout fires at once for larger delays, so those count as "no timeout". */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** AGENT_HOOKS_SPAWNER=1/0 forces the spawner on/off for every runCommand of the process. */
function useSpawner(spec: CommandSpec): boolean {
  const forced = process.env.AGENT_HOOKS_SPAWNER;
  return forced === '1' || forced === '0' ? forced === '1' : spec.spawner === true;
}

/** Run one command hook. Never throws; every failure is a result. */
export async function runCommand(spec: CommandSpec): Promise<ExecutionResult> {
  const started = nowMs();
  const blank = {
    exitCode: null,
    signal: null,
    stdout: '',
    stderr: '',
    stdoutTruncated: false,
    stderrTruncated: false,
    stdinTruncated: false,
  };
  // A hook that could not be started never judged anything: the engine's failure, not the hook's
  // (a missing cwd or program, a shell that is not installed), so it fails closed where it can block.
  const early = (status: 'error' | 'aborted', error: string): ExecutionResult => ({
    status,
    ...blank,
    durationMs: nowMs() - started,
    error,
    ...(status === 'error' ? { engineFault: true as const } : {}),
  });

  if (spec.signal?.aborted) return early('aborted', 'aborted before the hook started');
  const target = resolveTarget(spec);
  if ('error' in target) return early('error', target.error);

  // bash also counts SHLVL as a sign of being a login's child; set it as an agent's shell would. The
  // mark tags every process of this run, so one that left the tree is still found at the kill (process-tree.ts).
  const env: Record<string, string> = { ...spec.env };
  if (spec.shell === 'bash' && spec.args === undefined && spec.env.SHLVL === undefined) env.SHLVL = '1';
  const mark = hasProcFs() ? newRunMark() : undefined;
  if (mark !== undefined) env[RUN_MARK_ENV] = mark;

  if (useSpawner(spec) && spec.inputs === undefined) {
    // Loaded on first use: dispatch and `run` never turn the spawner on.
    const viaHelper = (await import('./spawner.js')).spawnViaHelper({
      file: target.file,
      args: target.args,
      cwd: spec.cwd,
      env,
      stdin: spec.stdin,
      maxOutputBytes: Math.max(0, spec.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES),
    });
    if (viaHelper) {
      const helped = await viaHelper;
      if ('error' in helped) {
        return early(
          'error',
          helped.sync ? `failed to start ${target.file}: ${helped.error.message}` : describeSpawnError(helped.error, spec, target.file),
        );
      }
      return supervise(helped, spec, target, started, mark);
    }
  }

  let child: ChildProcess;
  try {
    child = spawn(target.file, target.args, {
      cwd: spec.cwd,
      env,
      // Own process group and session: the whole tree can be signalled at once, and the
      // hook has no controlling terminal to read from.
      detached: process.platform !== 'win32',
      stdio: ['pipe', 'pipe', 'pipe', ...(spec.inputs ?? []).map(() => 'pipe' as const)],
      windowsHide: true,
    });
  } catch (err) {
    // Synchronous spawn errors: NUL bytes in arguments or env, invalid option types.
    return early('error', `failed to start ${target.file}: ${(err as Error).message}`);
  }
  // Descriptors 3, 4, …: a program that fails before reading them closes them (its exit says why).
  for (const [i, data] of (spec.inputs ?? []).entries()) (child.stdio[3 + i] as Writable).on('error', () => {}).end(data);
  return supervise(child, spec, target, started, mark);
}

type EndReason = 'timeout' | 'aborted' | 'drain';
type RunResult = Omit<ExecutionResult, 'durationMs' | 'stdinTruncated'>;

/** One supervised hook process: its settings, what happened so far, and the timers in flight. */
interface Run {
  child: ChildProcess | HookChild;
  spec: CommandSpec;
  target: { file: string; args: string[] };
  started: number;
  grace: number;
  drainMs: number;
  hasTimeout: boolean;
  deadline: number;
  stdout: Capture;
  stderr: Capture;
  pid: number | undefined;
  resolve: (result: ExecutionResult) => void;
  /** The one listener registered on spec.signal, kept so finish() can remove that very function. */
  onAbort: () => void;
  phase: 'running' | 'terminating' | 'done';
  endReason: EndReason;
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  /** The child's own 'close' and each drainer's: the hook's output has ended when all are in. */
  openEnds: number;
  /** The child's own 'close' came (its exit and its stdio). */
  childClosed: boolean;
  closed: boolean;
  /** `cat` processes reading what is past the cap (drainToCat); ended with the run. */
  drainers: ChildProcess[];
  lastSignal: NodeJS.Signals | null;
  owned: ProcEntry[];
  mark: string | undefined; // RUN_MARK_ENV value (Linux): finds what left the tree
  timeoutTimer: NodeJS.Timeout | undefined;
  drainTimer: NodeJS.Timeout | undefined;
  graceTimer: NodeJS.Timeout | undefined;
  pollTimer: NodeJS.Timeout | undefined;
}

function supervise(
  child: ChildProcess | HookChild,
  spec: CommandSpec,
  target: { file: string; args: string[] },
  started: number,
  mark: string | undefined,
): Promise<ExecutionResult> {
  const grace = Math.max(0, spec.killGraceMs ?? DEFAULT_KILL_GRACE_MS);
  const drainMs = Math.max(0, spec.exitDrainMs ?? DEFAULT_EXIT_DRAIN_MS);
  const maxOut = Math.max(0, spec.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES);
  const hasTimeout = Number.isFinite(spec.timeoutMs) && spec.timeoutMs <= MAX_TIMER_MS;
  const deadline = started + (hasTimeout ? Math.max(0, spec.timeoutMs) : Infinity);
  const stdout = new Capture(maxOut);
  const stderr = new Capture(maxOut);

  return new Promise<ExecutionResult>((resolve) => {
    const run: Run = {
      child,
      spec,
      target,
      started,
      grace,
      drainMs,
      hasTimeout,
      deadline,
      stdout,
      stderr,
      pid: child.pid,
      resolve,
      onAbort: () => terminate(run, 'aborted'),
      phase: 'running',
      endReason: 'timeout',
      exit: undefined,
      openEnds: 1,
      childClosed: false,
      closed: false,
      drainers: [],
      lastSignal: null,
      owned: [],
      mark,
      timeoutTimer: undefined,
      drainTimer: undefined,
      graceTimer: undefined,
      pollTimer: undefined,
    };
    watch(run);
  });
}

/**
 * Attach every listener and timer, in this order: spawn error, stdio, stdin write, exit, close,
 * timeout, abort; a spawner child releases its held-back events only after all of them.
 */
function watch(run: Run): void {
  const { child, spec, pid } = run;
  child.on('error', (err: NodeJS.ErrnoException) => {
    // After a successful spawn, 'error' only reports failed signals; ignore those.
    if (child.pid !== undefined) return;
    finish(run, {
      status: 'error',
      exitCode: null,
      signal: null,
      ...output(run),
      error: describeSpawnError(err, spec, run.target.file),
      engineFault: true, // not started (see `early` in runCommand)
    });
  });

  if (pid === undefined) return; // spawn failed; 'error' follows

  try {
    spec.onSpawn?.(pid);
  } catch {
    // An observer's bug must not break the run.
  }

  watchStdio(run);
  child.on('exit', (code, signal) => onExit(run, code, signal));
  child.on('close', () => {
    run.childClosed = true;
    endClosed(run);
  });

  if (run.hasTimeout) run.timeoutTimer = setTimeout(() => terminate(run, 'timeout'), Math.max(0, spec.timeoutMs));
  spec.signal?.addEventListener('abort', run.onAbort, { once: true });
  // A spawner child holds its events back until the listeners above are attached.
  if ('flush' in child && typeof child.flush === 'function') child.flush();
}

function watchStdio(run: Run): void {
  const { child } = run;
  // A spawner child's streams are not pipes of ours (its helper drains past the cap itself).
  const ours = process.platform !== 'win32' && !('flush' in child);
  for (const name of ['stdout', 'stderr'] as const) {
    const stream = child[name]!;
    const capture = run[name];
    let tried = !ours;
    const onData = (chunk: Buffer): void => {
      capture.push(chunk);
      if (name === 'stdout') run.spec.onStdout?.(chunk);
      if (tried || capture.dropped <= HAND_OFF_PAST_CAP_BYTES) return;
      tried = true; // once: where no drainer starts, we read on without trying per chunk
      const drainer = drainToCat(stream as Readable); // a pipe of ours: a ChildProcess's stream
      if (!drainer) return;
      stream.off('data', onData);
      run.openEnds++;
      run.drainers.push(drainer);
      // Status 0: cat read to the end of the pipe. Killed, it read no end: the hook's exit, the
      // drain deadline or the timeout end the run then, as for a descendant holding the pipe.
      drainer.on('close', (code) => {
        if (code === 0) endClosed(run);
      });
    };
    stream.on('data', onData);
    stream.on('error', () => {});
  }
  // A hook may exit or close stdin without reading it: EPIPE / ECONNRESET are expected.
  child.stdin!.on('error', () => {});
  writeStdin(child.stdin!, run.spec.stdin);
}

function onExit(run: Run, code: number | null, signal: NodeJS.Signals | null): void {
  run.exit = { code, signal };
  if (run.phase === 'running') {
    clearTimeout(run.timeoutTimer);
    // Output still in flight arrives within moments; a descendant holding the pipes
    // (e.g. `sleep 100 &`) would keep them open indefinitely.
    // Never past the timeout, but always a few ms: EOF can trail the exit a little even
    // when nothing holds the pipes, and cutting it short would lose the last output.
    const wait = Math.min(run.drainMs, Math.max(MIN_DRAIN_MS, run.deadline - nowMs()));
    run.drainTimer = setTimeout(() => terminate(run, 'drain'), wait);
  } else {
    // Terminating: the leader's exit may be the last sign the tree is gone.
    checkGone(run);
  }
}

/** One of the run's ends closed (the child's stdio and exit, or a drainer's). */
function endClosed(run: Run): void {
  run.openEnds--;
  if (run.openEnds === 0) onClose(run);
}

function onClose(run: Run): void {
  run.closed = true;
  if (run.phase === 'running') {
    const code = run.exit?.code ?? run.child.exitCode;
    const signal = run.exit?.signal ?? run.child.signalCode;
    finish(run, { status: 'completed', exitCode: code, signal, ...output(run) });
  } else {
    checkGone(run);
  }
}

/** Settle once: stop every timer and listener, let go of the pipes, resolve. */
function finish(run: Run, result: RunResult): void {
  if (run.phase === 'done') return;
  run.phase = 'done';
  clearTimeout(run.timeoutTimer);
  clearTimeout(run.drainTimer);
  clearTimeout(run.graceTimer);
  clearInterval(run.pollTimer);
  run.spec.signal?.removeEventListener('abort', run.onAbort);
  // A descendant outside our reach may still hold the pipes: stop waiting for it.
  run.child.stdin?.destroy();
  run.child.stdout?.destroy();
  run.child.stderr?.destroy();
  for (const drainer of run.drainers) if (drainer.exitCode === null && drainer.signalCode === null) drainer.kill('SIGKILL');
  run.resolve({ ...result, stdinTruncated: false, durationMs: nowMs() - run.started });
}

function output(run: Run) {
  return {
    stdout: run.stdout.text(),
    stderr: run.stderr.text(),
    stdoutTruncated: run.stdout.truncated,
    stderrTruncated: run.stderr.truncated,
  };
}

/** The result of a run we ended: a drain is a completion; a timeout or abort says so. */
function finishTerminated(run: Run): void {
  const { endReason, exit } = run;
  if (endReason === 'drain') {
    finish(run, { status: 'completed', exitCode: exit?.code ?? null, signal: exit?.signal ?? null, ...output(run) });
  } else {
    finish(run, {
      status: endReason,
      exitCode: null,
      signal: exit?.signal ?? run.lastSignal,
      ...output(run),
      error: endReason === 'timeout' ? `timed out after ${run.spec.timeoutMs} ms` : 'aborted',
    });
  }
}

function sendToTree(run: Run, signal: NodeJS.Signals): void {
  const { pid } = run;
  if (pid === undefined) return;
  run.lastSignal = signal;
  if (process.platform === 'win32') {
    run.child.kill(signal); // no process groups on Windows; only the direct child is reached
    return;
  }
  signalGroup(pid, signal);
  signalEscaped(run.owned, pid, signal);
}

function killNow(run: Run): void {
  // Also reaches anything forked after the snapshot; harmless to what already exited.
  sendToTree(run, 'SIGKILL');
  finishTerminated(run);
}

function treeGone(run: Run): boolean {
  const { pid } = run;
  if (pid === undefined) return true;
  if (hasProcFs()) return run.owned.every((entry) => !isLive(entry));
  // Without /proc a zombie still counts as a member, so this may only turn true at the grace end.
  // A drainer counts as closed once it exited, whatever its status: a killed one read no end.
  const outputClosed = run.closed || (run.childClosed && run.drainers.every((d) => d.exitCode !== null || d.signalCode !== null));
  return run.exit !== undefined && outputClosed && !groupExists(pid);
}

function checkGone(run: Run): void {
  if (run.phase === 'terminating' && treeGone(run)) killNow(run);
}

/** SIGTERM the tree, then SIGKILL at the grace end or as soon as the tree is seen gone. */
function terminate(run: Run, reason: EndReason): void {
  if (run.phase !== 'running') return;
  run.phase = 'terminating';
  run.endReason = reason;
  clearTimeout(run.timeoutTimer);
  clearTimeout(run.drainTimer);
  // Snapshot while parent links are intact, so descendants that left the group are found.
  if (run.pid !== undefined && hasProcFs()) run.owned = ownedProcesses(run.pid, undefined, run.mark);
  sendToTree(run, 'SIGTERM');
  if (run.grace === 0) {
    killNow(run);
    return;
  }
  run.graceTimer = setTimeout(() => killNow(run), run.grace);
  run.pollTimer = setInterval(() => checkGone(run), EXIT_POLL_MS);
}
