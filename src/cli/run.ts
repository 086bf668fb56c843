/**
 * `agent-hooks run EVENT`: fire one event through the configured hooks and print the decision
 * (docs/cli.md). Loaded only when `run` runs.
 *
 * Exit codes: 0 the action proceeds, 2 blocked or stopped (continue:false), 3 a hook asked
 * (decision "ask": the agent would prompt the user), 1 usage or config error.
 */
import { observabilityFor } from '../telemetry/observe.js';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { EventName } from '../events/catalog.js';
import type { Decision } from '../reduce/reduce.js';
import { engineOptionsFromConfig } from '../load/engine-options.js';
import { loadFromFlags, type LoadFlags } from '../load/from-flags.js';
import { createHookEngine, InvalidHookInputError } from '../engine/engine.js';
import { checkInputLoaded } from '../engine/input.js';
import { toJson } from '../reduce/json.js';
import { formatDiagnostic } from '../util/format-diagnostic.js';
import { addCommonFields, buildPayload, examplePayload, PayloadError, type PayloadFlags } from './payload.js';
import { traps } from './traps.js';
import { errStyles, outcomeStyle, styles, verdictStyle } from './style.js';
import { forTerminal, oneLine } from '../util/terminal-text.js';

export class RunUsageError extends Error {}

export const EXIT_ASK = 3;

/** Per stream, what --verbose shows (and what the trap checks read). */
const IO_CAP_BYTES = 8 * 1024;

export interface RunFlags extends LoadFlags {
  payload?: string;
  tool?: string;
  input?: string;
  prompt?: string;
  response?: string;
  stopActive?: boolean;
  source?: string;
  trigger?: string;
  message?: string;
  example?: boolean;
  verbose?: boolean;
  permissionMode?: string;
  json?: boolean;
  audit?: string;
  sessionId?: string;
  failureBehavior?: 'ignore' | 'ask' | 'deny';
  timeoutBehavior?: 'ignore' | 'ask' | 'deny';
  mcpConfig?: string;
}

function readJsonArg(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new RunUsageError(`${what} is not valid JSON: ${(err as Error).message}`);
  }
}

function readPayload(source: string): Record<string, unknown> {
  let text: string;
  try {
    text = source === '-' ? readFileSync(0, 'utf8') : readFileSync(resolve(source), 'utf8');
  } catch (err) {
    throw new RunUsageError(`cannot read payload ${source}: ${(err as Error).message}`);
  }
  const value = readJsonArg(text, `payload ${source}`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RunUsageError(`payload ${source} must be a JSON object`);
  }
  return value as Record<string, unknown>;
}

/** The payload of this run: defaults, --payload, field flags, common fields. */
export function runPayload(event: EventName, flags: RunFlags, cwd: string): Record<string, unknown> {
  const given = flags.payload ? readPayload(flags.payload) : {};
  const fieldFlags: PayloadFlags = {
    tool: flags.tool,
    input: flags.input !== undefined ? readJsonArg(flags.input, '--input') : undefined,
    prompt: flags.prompt,
    response: flags.response !== undefined ? readJsonArg(flags.response, '--response') : undefined,
    stopActive: flags.stopActive,
    source: flags.source,
    trigger: flags.trigger,
    message: flags.message,
  };
  let payload: Record<string, unknown>;
  try {
    payload = buildPayload(event, given, fieldFlags);
  } catch (err) {
    if (err instanceof PayloadError) throw new RunUsageError(err.message);
    throw err;
  }
  addCommonFields(event, payload, { cwd, sessionId: flags.sessionId, permissionMode: flags.permissionMode });
  return payload;
}

export async function runCommand(event: EventName, flags: RunFlags): Promise<number> {
  const cwd = resolve(flags.cwd ?? process.cwd());
  const payload = runPayload(event, flags, cwd);
  const problem = await checkInputLoaded(event, payload, { cwd });
  if (problem) throw new RunUsageError(`invalid ${event} payload: ${problem}`);
  if (flags.example) {
    process.stdout.write(`${JSON.stringify(examplePayload(event, payload), null, 2)}\n`);
    return 0;
  }

  // One try per process: the settings files are read in place (LoadConfigOptions.readFilesSync).
  const config = await loadFromFlags(flags, { readFilesSync: true });
  const errors = config.diagnostics.filter((d) => d.level === 'error');
  const e = errStyles();
  for (const d of config.diagnostics)
    process.stderr.write(`${d.level === 'error' ? e.red(formatDiagnostic(d)) : e.yellow(formatDiagnostic(d))}\n`);
  if (flags.verbose)
    for (const s of config.trust?.skipped ?? [])
      process.stderr.write(
        `${e.dim(oneLine(`  skipped ${[s.hook.source.file, s.hook.source.path].filter(Boolean).join(': ')}: ${s.message}`))}\n`,
      );
  // A broken file or plugin was skipped (reported above); the other sources still decide, so a
  // deny of theirs is never lost. Exit: 2 when blocked, else 1 for the skipped source.
  if (errors.length > 0)
    process.stderr.write(`agent-hooks: ${errors.length} config error(s): the sources that have them were skipped; the others ran\n`);
  // Loaded only with --mcp-config: the MCP definitions are checked by zod.
  const mcpConfig = flags.mcpConfig ? (await import('../mcp/config.js')).loadMcpConfigFile(flags.mcpConfig) : undefined;
  for (const d of mcpConfig?.diagnostics ?? []) process.stderr.write(`${formatDiagnostic(d)}\n`);
  if (mcpConfig?.diagnostics.some((d) => d.level === 'error')) return 1;

  const obs = await observabilityFor(config, cwd, (m) => process.stderr.write(`warning: ${m}\n`));
  const engine = createHookEngine({
    auditWriter: obs?.auditWriter,
    telemetry: obs?.telemetry ?? false,
    hooks: config.hooks,
    projectDir: cwd,
    cwd,
    ...engineOptionsFromConfig(config),
    // The flags override the settings.
    ...(flags.failureBehavior ? { failureBehavior: flags.failureBehavior } : {}),
    ...(flags.timeoutBehavior ? { timeoutBehavior: flags.timeoutBehavior } : {}),
    audit: flags.audit ? resolve(flags.audit) : undefined,
    // Always captured, for the trap warnings; shown (and audited) only with --verbose.
    captureIoBytes: IO_CAP_BYTES,
    auditIo: Boolean(flags.verbose),
    mcp: mcpConfig ? { servers: mcpConfig.servers } : undefined,
    // One event per process: starting the spawner helper would cost more than the fork it saves.
    spawner: false,
    // As dispatch: a hook that declares itself async on its first line is waited for, so the
    // decision printed shows what it answered (docs/backends.md).
    waitForAsyncDeclaration: true,
  });
  let decision: Decision;
  try {
    // --permission-mode is in the payload, reported as an agent reports it: `run` answers as dispatch does.
    decision = await engine.run(event, payload);
  } catch (err) {
    if (err instanceof InvalidHookInputError) throw new RunUsageError(err.message);
    throw err;
  } finally {
    await engine.close();
    await obs?.close();
  }
  const trapWarnings = traps(decision);
  if (!flags.verbose) for (const h of decision.hooks) delete h.io;
  const skipped = config.trust?.skipped.length ?? 0;
  if (flags.json) {
    const json = toJson(decision);
    if (trapWarnings.length > 0) json.traps = trapWarnings;
    if (skipped > 0) json.skippedUntrusted = skipped;
    process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
  } else process.stdout.write(formatDecision(decision, { verbose: Boolean(flags.verbose), traps: trapWarnings, skipped }));
  const code = exitCodeOf(decision);
  return code === 0 && errors.length > 0 ? 1 : code;
}

export function exitCodeOf(d: Decision): number {
  if (d.blocked || !d.continue) return 2;
  if (d.decision === 'ask') return EXIT_ASK;
  return 0;
}

function indent(text: string, prefix: string): string {
  return text
    .replace(/\n$/, '')
    .split('\n')
    .map((l) => `${prefix}${l}`)
    .join('\n');
}

export function formatDecision(d: Decision, opts: { verbose?: boolean; traps?: string[]; skipped?: number } = {}): string {
  const s = styles();
  // Hook-controlled text is escaped first (util/terminal-text.ts), then styled.
  const one = (t: string) => oneLine(t);
  const lines: string[] = [];
  const verdict = d.decision ?? 'no decision';
  lines.push(
    s.bold(
      `${d.event}: ${verdictStyle(s, d.decision)(`${verdict}${d.blocked ? ' (blocked)' : ''}`)}${d.reason ? ` — ${one(d.reason)}` : ''}`,
    ),
  );
  if (d.hooks.length === 0)
    lines.push(opts.skipped ? `  no hooks ran (${opts.skipped} skipped by the trust gate, see the warning above)` : '  no hooks matched');
  for (const h of d.hooks) {
    const where = one([h.source.kind, h.source.file, h.source.path].filter(Boolean).join(' '));
    const exit = h.exitCode === null ? (h.signal ? `signal ${h.signal}` : '-') : `exit ${h.exitCode}`;
    const flags = [h.stdoutTruncated && 'stdout truncated', h.stderrTruncated && 'stderr truncated', h.stdinTruncated && 'stdin truncated']
      .filter(Boolean)
      .join(', ');
    lines.push(
      `  ${outcomeStyle(s, h.outcome)(h.outcome.padEnd(18))} ${h.decision ?? ''} ${Math.round(h.durationMs)}ms ${exit}  ${s.dim(where)}${flags ? `  [${flags}]` : ''}`,
    );
    if (h.error) lines.push(`      ${one(h.error)}`);
    if (opts.verbose && h.io) {
      for (const [name, text] of [
        ['stdin', h.io.stdin],
        ['stdout', h.io.stdout],
        ['stderr', h.io.stderr],
      ] as const) {
        lines.push(text === '' ? s.dim(`      ${name}: (empty)`) : `${s.dim(`      ${name}:`)}\n${indent(forTerminal(text), '        ')}`);
      }
    }
  }
  if (d.updatedInput) lines.push(one(`updatedInput: ${JSON.stringify(d.updatedInput)}`));
  if (d.updatedOutput !== undefined) lines.push(one(`updatedOutput: ${JSON.stringify(d.updatedOutput)}`));
  for (const c of d.additionalContext) lines.push(one(`additionalContext: ${c}`));
  for (const m of d.systemMessages) lines.push(one(`systemMessage: ${m}`));
  if (!d.continue) lines.push(one(`continue: false${d.stopReason ? ` — ${d.stopReason}` : ''}`));
  if (Object.keys(d.eventOutput).length > 0) lines.push(one(`eventOutput: ${JSON.stringify(d.eventOutput)}`));
  for (const w of d.warnings) lines.push(s.yellow(one(`warning: ${w}`)));
  for (const t of opts.traps ?? []) lines.push(s.yellow(one(`trap: ${t}`)));
  return `${lines.join('\n')}\n`;
}
