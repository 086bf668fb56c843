/**
 * `agent-hooks dispatch --agent D`: the one hook command an agent runs. Reads D's payload on
 * stdin, maps it to the canonical event, runs the engine with its own config (any dialect, trust,
 * backends), and answers in D's output and exit-code convention.
 *
 * Kept lean on purpose: when no config file has a hook for the event, the answer comes from this
 * module, the dialect detectors and the adapters of the agent and of the files found (no zod, no
 * engine, no TOML unless a TOML file is read, no other dialect's tables). Only when a hook may run
 * is src/dispatch/run.ts imported.
 */
import { readFileSync } from 'node:fs';
import { userHome } from '../util/os-dirs.js';
import { join, resolve } from 'node:path';
import { detectDialectName, loadDialect, loadWire } from '../agents/registry.js';
import { isJsoncFile, readDocument } from '../agents/shared/document.js';
import { dialectFiles, foreignDialects, parseDiscoverDialects, type DiscoverDialects } from '../agents/shared/locations.js';
import {
  DIALECT_NAMES,
  isDialectName,
  type Dialect,
  type DialectName,
  type DispatchInput,
  type DispatchOutput,
  type WireAdapter,
} from '../agents/types.js';
import { isObject } from '../util/is-object.js';
import type { EventName } from '../events/catalog.js';
import { eventFacts, failsClosedWhenUnjudged, isEventName } from '../events/facts.js';
import { unjudgedDecision } from '../reduce/reduce.js';
import { isSessionPaused } from '../session/pause-file.js';
import { forTerminal } from '../util/terminal-text.js';
import { claudeConfigDir } from '../util/claude-dir.js';
import { DISPATCH_ENV, type DispatchFlags } from './flags.js';
import { agentProjectDir, reviewedHooksOf } from '../load/project-dir.js';

export type { DispatchFlags } from './flags.js';

function note(o: DispatchOutput, message: string): DispatchOutput {
  return { ...o, stderr: `${o.stderr}agent-hooks dispatch: ${message}\n` };
}

/** Where Claude Code (and so `run` with no --settings) looks; mirrors config/load.ts (a test keeps them equal). */
export function discoveryFiles(cwd: string, home?: string, platform: NodeJS.Platform = process.platform): string[] {
  const managed =
    platform === 'darwin'
      ? '/Library/Application Support/ClaudeCode/managed-settings.json'
      : platform === 'win32'
        ? 'C:\\Program Files\\ClaudeCode\\managed-settings.json'
        : '/etc/claude-code/managed-settings.json';
  const user = join(claudeConfigDir({ homeDir: home, defaultHome: userHome() }), 'settings.json');
  return [managed, user, join(cwd, '.claude', 'settings.json'), join(cwd, '.claude', 'settings.local.json')];
}

/**
 * Could any configured hook fire for `event`, or a reviewed one on record (project-dir.ts
 * reviewedHooksOf)? Reads each config file once, without validating it.
 * Conservative: a file that cannot be read or parsed answers "maybe" (the full load reports it).
 */
export async function mayHaveHooks(event: EventName, flags: DispatchFlags): Promise<boolean> {
  const cwd = resolve(flags.cwd ?? process.cwd());
  const explicit = flags.settings ?? [];
  const discover = flags.discover ?? explicit.length === 0;
  const candidates: Array<{ file: string; text?: string; forced?: string; setting?: boolean }> = [];
  // Managed and user settings (and --settings) may carry agentHooks.discoverDialects: read it on the way.
  if (discover)
    discoveryFiles(cwd).forEach((f, i) => {
      candidates.push({ file: f, setting: i < 2 });
    });
  else if (flags.managedSettings) candidates.push({ file: resolve(flags.managedSettings) });
  if (discover && flags.managedSettings) candidates[0] = { file: resolve(flags.managedSettings), setting: true };
  explicit.forEach((s, i) => {
    candidates.push(
      s.trimStart().startsWith('{')
        ? { file: `<--settings #${i + 1}>`, text: s, forced: flags.dialect, setting: true }
        : { file: resolve(s), forced: flags.dialect, setting: true },
    );
  });
  for (const p of flags.plugin ?? []) candidates.push({ file: join(resolve(p), 'hooks', 'hooks.json'), forced: 'claude' });

  let which: DiscoverDialects | undefined;
  if (flags.discoverDialects !== undefined) {
    const parsed = parseDiscoverDialects(flags.discoverDialects);
    if (!parsed.ok) return true; // the full load reports it
    which = parsed.value;
  }
  const settingValues: unknown[] = [];
  if (await anyMayFire(event, candidates, settingValues)) return true;
  if (!discover) return false;
  // Reviewed hooks on record fire too, removed or not: their events then fail closed in the full load.
  if (await reviewedHooksOf([event], cwd)) return true;
  if (which === undefined) {
    // Conservative: any value set anywhere it could count widens the search; a malformed one is "all".
    const wanted = new Set<DialectName>();
    for (const v of settingValues) {
      if (v === 'all' || !Array.isArray(v)) return foreignMayFire(event, 'all', cwd);
      for (const n of v) if (typeof n === 'string' && isDialectName(n)) wanted.add(n);
    }
    which = [...wanted];
  }
  return foreignMayFire(event, which, cwd);
}

async function foreignMayFire(event: EventName, which: DiscoverDialects, cwd: string): Promise<boolean> {
  const foreign = await foreignCandidates(which, cwd);
  return foreign === undefined || anyMayFire(event, foreign, []);
}

/** The discovery files of the other dialects; undefined when an adapter cannot load (then: maybe). */
async function foreignCandidates(which: DiscoverDialects, cwd: string): Promise<Array<{ file: string; forced: string }> | undefined> {
  const dialects = await Promise.all(foreignDialects(which).map((n) => loadDialect(n).catch(() => undefined)));
  if (dialects.some((d) => d === undefined)) return undefined;
  return dialectFiles(dialects as Dialect[], { projectDir: cwd, homeDir: userHome() }).map((d) => ({
    file: d.file,
    forced: d.dialect,
  }));
}

async function anyMayFire(
  event: EventName,
  candidates: Array<{ file: string; text?: string; forced?: string; setting?: boolean }>,
  settingValues: unknown[],
): Promise<boolean> {
  for (const c of candidates) {
    let text = c.text;
    if (text === undefined) {
      try {
        text = readFileSync(c.file, 'utf8');
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') continue;
        return true;
      }
    }
    const read = await readDocument(c.file, text, { jsonc: isJsoncFile(c.file, c.forced) });
    if (!read.ok) return true;
    if (c.setting && isObject(read.doc) && isObject(read.doc.agentHooks)) {
      if (read.doc.agentHooks.discoverDialects !== undefined) settingValues.push(read.doc.agentHooks.discoverDialects);
      // The engine's own hooks (builtinHooks), switched on where they count: no hook in any file needed.
      // Loaded only where a file names them: dispatch with nothing to run loads no engine module.
      const builtins = read.doc.agentHooks.builtinHooks;
      if (builtins !== undefined && (await import('../engine/builtin-hooks.js')).builtinHookEvents(builtins).includes(event)) return true;
    }
    const name = c.forced ?? detectDialectName(c.file, read.doc).name;
    if (!isDialectName(name)) return true;
    // An adapter that cannot load cannot say which events the file configures: maybe (the full load reports it).
    const dialect = await loadDialect(name).catch(() => undefined);
    if (!dialect) return true;
    for (const native of dialect.configuredEvents(read.doc)) {
      const canonical = dialect.events.filter((e) => e.native === native).map((e) => e.event);
      if (canonical.includes(event) || (dialect.name === 'claude' && native === event)) return true;
      // Skill/agent frontmatter turns Stop into SubagentStop; plugins never do — but be generous.
      if (isEventName(native) && eventFacts(native).subagentEvent === event) return true;
    }
  }
  return false;
}

/** Read stdin as one JSON object (empty stdin is an empty payload). */
function readPayload(text: string): Record<string, unknown> | { error: string } {
  if (text.trim() === '') return {};
  try {
    const v: unknown = JSON.parse(text);
    return isObject(v) ? v : { error: 'the payload on stdin is not a JSON object' };
  } catch (err) {
    return { error: `the payload on stdin is not valid JSON: ${(err as Error).message}` };
  }
}

/**
 * For agents that read stderr as output when stdout is empty, an exit-0 answer with a note on
 * stderr gets an empty JSON object on stdout: the note stays a note, never an allow.
 */
function guardStderr(wire: WireAdapter, o: DispatchOutput): DispatchOutput {
  if (!wire.stderrReadAsOutput || o.exitCode !== 0 || o.stdout.trim() !== '' || o.stderr.trim() === '') return o;
  return { ...o, stdout: '{}\n' };
}

/** The whole dispatch, from stdin text to what to print; never throws. */
export async function dispatch(flags: DispatchFlags, stdinText: string): Promise<DispatchOutput> {
  if (!isDialectName(flags.agent))
    return {
      stdout: '',
      stderr: `agent-hooks dispatch: unknown agent ${JSON.stringify(flags.agent)} (one of ${DIALECT_NAMES.join(', ')})\n`,
      exitCode: 1,
    };
  let wire: WireAdapter;
  try {
    wire = await loadWire(flags.agent);
  } catch (err) {
    return internalError(err);
  }
  return guardStderr(wire, await dispatchWith(wire, flags, stdinText));
}

async function dispatchWith(wire: WireAdapter, flags: DispatchFlags, stdinText: string): Promise<DispatchOutput> {
  // Known once the payload is decoded: an internal error after that fails closed where the event can block.
  let input: DispatchInput | undefined;
  try {
    // Loaded only when the variable is set: the check reads the process table (recursion-guard.ts).
    if (process.env[DISPATCH_ENV] && (await import('./recursion-guard.js')).calledFromDispatch(process.env[DISPATCH_ENV]))
      return note(wire.noop(flags.event), 'called from a hook that dispatch itself runs; doing nothing (recursion guard)');
    const raw = readPayload(stdinText);
    if ('error' in raw && typeof raw.error === 'string') return unreadable(wire, flags, raw.error);
    const decoded = wire.decodePayload(raw as Record<string, unknown>, flags.event);
    // No event name at all is an invalid payload (exit 1, as for bad JSON), not an event to skip.
    if ('skip' in decoded && decoded.nativeEvent === undefined && flags.event === undefined)
      return { stdout: '', stderr: `agent-hooks dispatch: invalid payload: ${decoded.skip}\n`, exitCode: 1 };
    if ('skip' in decoded) return note(wire.noop(decoded.nativeEvent ?? flags.event), decoded.skip);
    input = decoded;
    // A session paused in `agent-hooks serve` runs no hooks (pause file: src/session/pause-file.ts).
    const sid = input.payload.session_id;
    if (typeof sid === 'string' && isSessionPaused(sid).paused)
      return note(wire.noop(input.nativeEvent), `session ${sid} is paused (agent-hooks serve); no hooks run`);
    if (flags.remote) {
      const policy = flags.remoteFailure ?? 'deny';
      if (policy !== 'deny' && policy !== 'ask' && policy !== 'ignore')
        return { stdout: '', stderr: `agent-hooks dispatch: --remote-failure must be deny, ask or ignore\n`, exitCode: 1 };
      const { remoteDispatch } = await import('./remote.js');
      return await remoteDispatch(wire, input, { url: flags.remote, token: process.env.AGENT_HOOKS_REMOTE_TOKEN, onFailure: policy });
    }
    // The project is the agent's, not the payload's cwd (src/load/project-dir.ts); the fast no-hooks
    // check and the run both get it as --cwd, so they never look in different directories.
    const scoped = { ...flags, cwd: await projectOf(flags.agent as DialectName, input, flags.cwd) };
    if (!(await mayHaveHooks(input.event, scoped))) return wire.noop(input.nativeEvent);
    const { runDispatch } = await import('./run.js');
    return await runDispatch(wire, input, scoped);
  } catch (err) {
    return input ? unjudged(wire, input, err) : internalError(err);
  }
}

/** The agent's project for this call: --cwd, its project variable, the trusted workspace above cwd, cwd. */
async function projectOf(agent: DialectName, input: DispatchInput, flagCwd: string | undefined): Promise<string> {
  const payloadCwd = typeof input.payload.cwd === 'string' && input.payload.cwd ? input.payload.cwd : process.cwd();
  const { projectDirEnv } = await loadDialect(agent);
  return agentProjectDir({ flagCwd, cwd: payloadCwd, envNames: projectDirEnv, env: process.env });
}

/**
 * A payload that is not a JSON object. Where the command line names the event (Copilot's --event)
 * and it fails closed when unjudged, no guard could be shown the call: denied with the reason, in
 * the agent's convention. Otherwise (no event known) the non-blocking exit 1.
 */
function unreadable(wire: WireAdapter, flags: DispatchFlags, error: string): DispatchOutput {
  const plain = { stdout: '', stderr: `agent-hooks dispatch: ${error}\n`, exitCode: 1 };
  const decoded = flags.event === undefined ? undefined : wire.decodePayload({}, flags.event);
  if (decoded === undefined || 'skip' in decoded || !failsClosedWhenUnjudged(decoded.event)) return plain;
  const reason = `agent-hooks dispatch: ${error}; the hooks for ${decoded.event} could not be given this call, so it is denied`;
  const o = wire.encodeDecision(unjudgedDecision(decoded.event, reason), decoded);
  return o.exitCode === 2 ? o : { ...o, stderr: o.stderr + plain.stderr };
}

// Exit 1 is a non-blocking error for every supported agent: the agent goes on and shows the message.
function internalError(err: unknown): DispatchOutput {
  return { stdout: '', stderr: `agent-hooks dispatch: internal error: ${(err as Error)?.stack ?? String(err)}\n`, exitCode: 1 };
}

/**
 * dispatch failed after the event was known (a bug, a bundle file missing from a broken install):
 * the hooks that were to judge it did not. Where a block stops the guarded action the event is
 * denied in the agent's convention, the error as the reason (`failsClosedWhenUnjudged`); elsewhere,
 * or if even the encoding fails, the non-blocking exit 1.
 */
function unjudged(wire: WireAdapter, input: DispatchInput, err: unknown): DispatchOutput {
  const plain = internalError(err);
  if (!failsClosedWhenUnjudged(input.event)) return plain;
  const why = (err as Error)?.message ?? String(err);
  try {
    const o = wire.encodeDecision(
      unjudgedDecision(
        input.event,
        `agent-hooks dispatch failed (internal error: ${why}), so the hooks for ${input.event} could not judge it; failing closed`,
      ),
      input,
    );
    // On exit 2 stderr is the reason the agent shows the model: the stack stays out of it.
    return o.exitCode === 2 ? o : { ...o, stderr: o.stderr + plain.stderr };
  } catch {
    return plain;
  }
}

/** Read stdin, dispatch, print, set the exit code. */
export async function dispatchMain(flags: DispatchFlags): Promise<number> {
  const parent = process.ppid;
  let text = '';
  try {
    text = readFileSync(0, 'utf8');
  } catch {
    text = '';
  }
  const o = await dispatch(flags, text);
  if (o.endAgent !== undefined) {
    process.stderr.write(forTerminal(`agent-hooks dispatch: ending the agent: ${o.endAgent.reason}\n`));
    if (await (await import('./end-agent.js')).endAgent(o.endAgent, parent)) return 2;
  }
  if (o.stdout) process.stdout.write(o.stdout);
  // stdout is the agent's protocol and stays exact; stderr is shown to a person.
  if (o.stderr) process.stderr.write(forTerminal(o.stderr));
  return o.exitCode;
}
