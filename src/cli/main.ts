#!/usr/bin/env node
/**
 * agent-hooks CLI: thin over the library. Exit codes: 0 the action proceeds / ok,
 * 2 blocked or stopped (run), 1 usage or config error.
 *
 * Cold start: this module and the command modules hold only the command definitions (names,
 * options, help); an action imports the engine, config, trust, server… it needs when it runs,
 * so `--version`, `--help` and one command load no more than that command uses
 * (test/cli/lazy-load.test.ts).
 */
import { Command, CommanderError, Option } from 'commander';
import { readFileSync, realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { EventName } from '../events/catalog.js';
import type { Decision } from '../reduce/reduce.js';
import type { LoadFlags } from './load.js';
import { formatDiagnostic } from './format.js';
// <feature-command-imports> one import per feature command module, below this line
import { registerServeCommand } from './commands/serve.js';
import { registerDemoCommand } from './commands/demo.js';
import { registerTestCommand } from './commands/test.js';
import { registerInitCommand } from './commands/init.js';
import { registerDispatchCommand } from './commands/dispatch.js';
import { registerConvertCommand } from './commands/convert.js';
import { registerTrustCommand } from './commands/trust.js';
import { registerMcpProxyCommand } from './commands/mcp-proxy.js';

const EXECUTABLE_TYPES = ['command', 'function', 'http', 'prompt'] as const;

/** The first events of the catalog, for `run --help` without loading it (a test keeps them equal). */
export const FIRST_EVENT_NAMES = ['SessionStart', 'Setup', 'InstructionsLoaded', 'UserPromptSubmit'] as const;

class UsageError extends Error {}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function addLoadOptions(cmd: Command): Command {
  return cmd
    .option('--settings <file>', 'settings file with a "hooks" object (repeatable)', collect)
    .option('--plugin <dir>', 'plugin directory with hooks/hooks.json (repeatable)', collect)
    .option('--cwd <dir>', 'working and project directory (default: current directory)')
    .option('--discover', 'also read user, project, local and managed settings (default when no --settings is given)')
    .option('--discover-dialects <list>', "also discover these agents' hook files: comma-separated dialects, or all (docs/dialects.md)")
    .option('--managed-settings <file>', 'managed policy settings file');
}

async function parseEvent(name: string): Promise<EventName> {
  const { EVENT_NAMES, isEventName } = await import('../events/catalog.js');
  if (isEventName(name)) return name;
  const lower = name.toLowerCase();
  const hit = EVENT_NAMES.find((e) => e.toLowerCase() === lower);
  if (hit) return hit;
  throw new UsageError(`unknown event "${name}". Events: ${EVENT_NAMES.join(', ')}`);
}

function readJsonArg(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${what} is not valid JSON: ${(err as Error).message}`);
  }
}

function readPayload(source: string): Record<string, unknown> {
  let text: string;
  try {
    text = source === '-' ? readFileSync(0, 'utf8') : readFileSync(resolve(source), 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read payload ${source}: ${(err as Error).message}`);
  }
  const value = readJsonArg(text, `payload ${source}`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(`payload ${source} must be a JSON object`);
  }
  return value as Record<string, unknown>;
}

interface RunFlags extends LoadFlags {
  payload?: string;
  tool?: string;
  input?: string;
  permissionMode?: string;
  json?: boolean;
  audit?: string;
  sessionId?: string;
  failureBehavior?: 'ignore' | 'ask' | 'deny';
  timeoutBehavior?: 'ignore' | 'ask' | 'deny';
  mcpConfig?: string;
}

async function runCommand(eventName: string, flags: RunFlags): Promise<number> {
  const event = await parseEvent(eventName);
  const [{ loadFromFlags }, { loadMcpConfigFile }, { checkInput, createHookEngine, InvalidHookInputError }, { toJson }] = await Promise.all([
    import('./load.js'),
    import('../mcp/config.js'),
    import('../engine/engine.js'),
    import('./json.js'),
  ]);
  const config = await loadFromFlags(flags);
  const errors = config.diagnostics.filter((d) => d.level === 'error');
  for (const d of config.diagnostics) process.stderr.write(`${formatDiagnostic(d)}\n`);
  // A broken file or plugin was skipped (reported above); the other sources still decide, so a
  // deny of theirs is never lost. Exit: 2 when blocked, else 1 for the skipped source.
  if (errors.length > 0) process.stderr.write(`agent-hooks: ${errors.length} config error(s): the sources that have them were skipped; the others ran\n`);
  const mcpConfig = flags.mcpConfig ? loadMcpConfigFile(flags.mcpConfig) : undefined;
  for (const d of mcpConfig?.diagnostics ?? []) process.stderr.write(`${formatDiagnostic(d)}\n`);
  if (mcpConfig?.diagnostics.some((d) => d.level === 'error')) return 1;

  const cwd = resolve(flags.cwd ?? process.cwd());
  const payload: Record<string, unknown> = flags.payload ? readPayload(flags.payload) : {};
  if (flags.tool) payload.tool_name = flags.tool;
  if (flags.input !== undefined) payload.tool_input = readJsonArg(flags.input, '--input');
  if ((flags.tool || flags.input !== undefined) && payload.tool_input === undefined) payload.tool_input = {};
  payload.session_id ??= flags.sessionId ?? `cli-${randomUUID()}`;
  payload.transcript_path ??= '';
  payload.cwd ??= cwd;
  payload.hook_event_name = event;
  if (flags.permissionMode) payload.permission_mode = flags.permissionMode;
  else payload.permission_mode ??= 'default';

  const problem = checkInput(event, payload, { cwd });
  if (problem) throw new UsageError(`invalid ${event} payload: ${problem}`);

  const engine = createHookEngine({
    hooks: config.hooks,
    projectDir: cwd,
    cwd,
    failureBehavior: flags.failureBehavior ?? config.options.failureBehavior,
    timeoutBehavior: flags.timeoutBehavior ?? config.options.timeoutBehavior,
    maxConcurrentHooks: config.options.maxConcurrentHooks,
    stopHookMaxConsecutiveBlocks: config.options.stopHookMaxConsecutiveBlocks,
    stdinLimitBytes: config.options.stdinLimitBytes,
    outputLimitBytes: config.options.outputLimitBytes,
    passEnv: config.options.passEnv,
    audit: flags.audit ? resolve(flags.audit) : undefined,
    http: { allowedHttpHookUrls: config.allowedHttpHookUrls, httpHookAllowedEnvVars: config.httpHookAllowedEnvVars },
    mcp: mcpConfig ? { servers: mcpConfig.servers } : undefined,
  });
  let decision: Decision;
  try {
    decision = await engine.run(event, payload, { permissionMode: flags.permissionMode });
  } catch (err) {
    if (err instanceof InvalidHookInputError) throw new UsageError(err.message);
    throw err;
  } finally {
    await engine.close();
  }
  if (flags.json) process.stdout.write(`${JSON.stringify(toJson(decision), null, 2)}\n`);
  else process.stdout.write(formatDecision(decision));
  return decision.blocked || !decision.continue ? 2 : errors.length > 0 ? 1 : 0;
}


function formatDecision(d: Decision): string {
  const lines: string[] = [];
  const verdict = d.decision ?? 'no decision';
  lines.push(`${d.event}: ${verdict}${d.blocked ? ' (blocked)' : ''}${d.reason ? ` — ${d.reason}` : ''}`);
  if (d.hooks.length === 0) lines.push('  no hooks matched');
  for (const h of d.hooks) {
    const where = [h.source.kind, h.source.file, h.source.path].filter(Boolean).join(' ');
    const exit = h.exitCode === null ? (h.signal ? `signal ${h.signal}` : '-') : `exit ${h.exitCode}`;
    const flags = [h.stdoutTruncated && 'stdout truncated', h.stderrTruncated && 'stderr truncated', h.stdinTruncated && 'stdin truncated']
      .filter(Boolean)
      .join(', ');
    lines.push(`  ${h.outcome.padEnd(18)} ${h.decision ?? ''} ${Math.round(h.durationMs)}ms ${exit}  ${where}${flags ? `  [${flags}]` : ''}`);
    if (h.error) lines.push(`      ${h.error}`);
  }
  if (d.updatedInput) lines.push(`updatedInput: ${JSON.stringify(d.updatedInput)}`);
  if (d.updatedOutput !== undefined) lines.push(`updatedOutput: ${JSON.stringify(d.updatedOutput)}`);
  for (const c of d.additionalContext) lines.push(`additionalContext: ${c}`);
  for (const m of d.systemMessages) lines.push(`systemMessage: ${m}`);
  if (!d.continue) lines.push(`continue: false${d.stopReason ? ` — ${d.stopReason}` : ''}`);
  if (Object.keys(d.eventOutput).length > 0) lines.push(`eventOutput: ${JSON.stringify(d.eventOutput)}`);
  for (const w of d.warnings) lines.push(`warning: ${w}`);
  return `${lines.join('\n')}\n`;
}

async function listCommand(flags: LoadFlags & { event?: string; json?: boolean }): Promise<number> {
  const { loadFromFlags } = await import('./load.js');
  const config = await loadFromFlags(flags);
  for (const d of config.diagnostics) process.stderr.write(`${formatDiagnostic(d)}\n`);
  const event = flags.event ? await parseEvent(flags.event) : undefined;
  const hooks = config.hooks.filter((h) => !event || h.event === event);
  if (flags.json) {
    process.stdout.write(
      `${JSON.stringify(
        hooks.map((h) => ({ id: h.id, event: h.event, matcher: h.matcher, handler: h.handler, source: h.source })),
        null,
        2,
      )}\n`,
    );
  } else if (hooks.length === 0) {
    process.stdout.write(config.disabled.all ? `hooks are disabled${config.disabled.reason ? `: ${config.disabled.reason}` : ''}\n` : 'no hooks\n');
  } else {
    for (const h of hooks) {
      const what = describeHandler(h.handler as unknown as { type: string } & Record<string, unknown>);
      const src = [h.source.kind, h.source.pluginName, h.source.file].filter(Boolean).join(' ');
      process.stdout.write(`${h.event.padEnd(20)} ${(h.matcher ?? '*').padEnd(16)} ${h.handler.type.padEnd(8)} ${what}\n    from ${src} ${h.source.path}\n`);
    }
  }
  return config.diagnostics.some((d) => d.level === 'error') ? 1 : 0;
}

function describeHandler(h: { type: string } & Record<string, unknown>): string {
  const extra = h.if ? ` if ${String(h.if)}` : '';
  if (h.type === 'command') {
    const args = Array.isArray(h.args) ? ` ${JSON.stringify(h.args)}` : '';
    return `${String(h.command)}${args}${extra}`;
  }
  if (h.type === 'http') return `${String(h.url)}${extra}`;
  if (h.type === 'mcp_tool') return `${String(h.server)}/${String(h.tool)}${extra}`;
  if (h.type === 'function') return `${String(h.name ?? 'function')}${extra}`;
  return `${String(h.prompt ?? '').slice(0, 60)}${extra}`;
}

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('agent-hooks')
    .description('Run, check and inspect hooks for AI coding agents (Claude Code settings.json dialect).')
    .version('0.1.0')
    .showHelpAfterError()
    .exitOverride();

  addLoadOptions(
    program
      .command('run')
      .description('fire one event through the configured hooks and print the decision')
      .argument('<event>', `event name (${FIRST_EVENT_NAMES.join(', ')}, …)`)
      .option('--payload <file>', 'JSON payload file, or - for stdin')
      .option('--tool <name>', 'tool_name for tool events')
      .option('--input <json>', 'tool_input as JSON')
      .option('--permission-mode <mode>', 'permission mode (default, plan, acceptEdits, bypassPermissions, …)')
      .option('--session-id <id>', 'session id (default: a fresh one)')
      .option('--audit <file>', 'append one JSON line per hook execution to this file')
      .addOption(new Option('--failure-behavior <b>', 'policy for failing hooks').choices(['ignore', 'ask', 'deny']))
      .addOption(new Option('--timeout-behavior <b>', 'policy for timed-out hooks').choices(['ignore', 'ask', 'deny']))
      .option('--mcp-config <file>', 'MCP servers for mcp_tool hooks: {"mcpServers": {name: {command, args?, env?, cwd?}}} (.mcp.json shape, stdio)')
      .option('--json', 'print the decision as one JSON object'),
  ).action(async (event: string, flags: RunFlags) => {
    process.exitCode = await runCommand(event, flags);
  });

  program
    .command('check')
    .description('validate settings files, plugin hooks and directories of them')
    .argument('[paths...]', 'files or directories (default: discovered settings of the current directory)')
    .option('--json', 'print diagnostics as JSON')
    .action(async (paths: string[], flags: { json?: boolean }) => {
      const { checkPaths } = await import('./check.js');
      const result = await checkPaths(paths, EXECUTABLE_TYPES);
      if (flags.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      else {
        for (const d of result.diagnostics) process.stdout.write(`${formatDiagnostic(d)}\n`);
        const errors = result.diagnostics.filter((d) => d.level === 'error').length;
        const warnings = result.diagnostics.length - errors;
        process.stdout.write(`${result.files.length} file(s) checked, ${result.hooks} hook(s), ${errors} error(s), ${warnings} warning(s)\n`);
      }
      process.exitCode = result.diagnostics.some((d) => d.level === 'error') ? 1 : 0;
    });

  addLoadOptions(
    program
      .command('list')
      .description('list the effective hooks with provenance (after dedup and policy)')
      .option('--event <event>', 'only this event')
      .option('--json', 'print as JSON'),
  ).action(async (flags: LoadFlags & { event?: string; json?: boolean }) => {
    process.exitCode = await listCommand(flags);
  });

  // <feature-command-registrations> one `registerXCommand(program);` per feature module, below this line
  registerServeCommand(program);
  registerDemoCommand(program);
  registerTestCommand(program);
  registerInitCommand(program);
  registerDispatchCommand(program);
  registerConvertCommand(program);
  registerTrustCommand(program);
  registerMcpProxyCommand(program);

  program
    .command('schema')
    .description('print the JSON Schema of the settings file')
    .action(async () => {
      const { settingsJsonSchema } = await import('../config/index.js');
      process.stdout.write(`${JSON.stringify(settingsJsonSchema(), null, 2)}\n`);
    });

  return program;
}

export async function main(argv: string[]): Promise<void> {
  // A closed pipe (`agent-hooks schema | head`) is a normal way for output to end.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  });
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version exit 0; usage errors exit 1.
      process.exitCode = err.exitCode === 0 ? 0 : 1;
      return;
    }
    if (err instanceof UsageError) {
      process.stderr.write(`agent-hooks: ${err.message}\n`);
      process.exitCode = 1;
      return;
    }
    process.stderr.write(`agent-hooks: internal error: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exitCode = 1;
  }
}

// Run only as the entry point, so tests can import buildProgram without side effects.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) void main(process.argv);
