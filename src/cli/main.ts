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
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { EVENT_NAMES, isEventName, type EventName } from '../events/facts.js';
import type { LoadFlags } from '../load/from-flags.js';
import type { RunFlags } from './run.js';
import { formatDiagnostic } from '../util/format-diagnostic.js';
import { helpText } from './help.js';
// <feature-command-imports> one import per feature command module, below this line
import { registerServeCommand } from './commands/serve.js';
import { registerDemoCommand } from './commands/demo.js';
import { registerTestCommand } from './commands/test.js';
import { registerInitCommand } from './commands/init.js';
import { registerDispatchCommand } from './commands/dispatch.js';
import { registerConvertCommand } from './commands/convert.js';
import { registerTrustCommand } from './commands/trust.js';
import { registerMcpProxyCommand } from './commands/mcp-proxy.js';
import { oneLine } from '../util/terminal-text.js';
import { registerPolicyServerCommand } from './commands/policy-server.js';
import { registerInstallCommand } from './commands/install.js';

const EXECUTABLE_TYPES = ['command', 'function', 'http', 'prompt'] as const;

/** The first events of the catalog, for `run --help` (from the zod-free facts). */
export const FIRST_EVENT_NAMES = EVENT_NAMES.slice(0, 4);

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
  if (isEventName(name)) return name;
  const lower = name.toLowerCase();
  const hit = EVENT_NAMES.find((e) => e.toLowerCase() === lower);
  if (hit) return hit;
  const { suggest } = await import('./suggest.js');
  const hint = suggest(name, EVENT_NAMES);
  throw new UsageError(
    hint.length > 0
      ? `unknown event "${name}" (did you mean ${hint.map((h) => `"${h}"`).join(' or ')}?)`
      : `unknown event "${name}". Events: ${EVENT_NAMES.join(', ')}`,
  );
}

async function listCommand(flags: LoadFlags & { event?: string; json?: boolean }): Promise<number> {
  const { loadFromFlags } = await import('../load/from-flags.js');
  // `list` is where to see what is skipped and why: one line per skipped hook.
  const config = await loadFromFlags(flags, { eachSkippedHook: true });
  for (const d of config.diagnostics) process.stderr.write(`${formatDiagnostic(d)}\n`);
  const event = flags.event ? await parseEvent(flags.event) : undefined;
  const hooks = config.hooks.filter((h) => !event || h.event === event);
  // A trusted hook whose executed files cannot be determined runs, but says so (docs/security.md).
  const unpinnedOf = (id: string) => config.trust?.hooks.find((s) => s.id === id && s.needsTrust)?.unpinned ?? [];
  if (flags.json) {
    process.stdout.write(
      `${JSON.stringify(
        hooks.map((h) => ({
          id: h.id,
          event: h.event,
          matcher: h.matcher,
          handler: h.handler,
          source: h.source,
          enabled: h.handler.enabled !== false,
          ...(unpinnedOf(h.id).length > 0 ? { unpinned: unpinnedOf(h.id) } : {}),
        })),
        null,
        2,
      )}\n`,
    );
  } else if (hooks.length === 0) {
    process.stdout.write(
      config.disabled.all ? `hooks are disabled${config.disabled.reason ? `: ${oneLine(config.disabled.reason)}` : ''}\n` : 'no hooks\n',
    );
  } else {
    const { table, styles } = await import('./style.js');
    const s = styles();
    // Columns sized to their content (a long matcher is cut with …, never shifts the rest).
    const rows = table(
      hooks.map((h) => [
        h.event,
        oneLine(h.matcher ?? '*'),
        h.handler.type,
        oneLine(describeHandler(h.handler as unknown as { type: string } & Record<string, unknown>)),
      ]),
    );
    hooks.forEach((h, i) => {
      const src = [h.source.kind, h.source.pluginName, h.source.file].filter(Boolean).join(' ');
      // Switched off with `"enabled": false`: listed, never run.
      const off = h.handler.enabled === false ? `  ${s.yellow('disabled')}` : '';
      process.stdout.write(`${rows[i]}${off}\n    ${s.dim(`from ${oneLine(src)} ${oneLine(h.source.path)}`)}\n`);
      for (const u of unpinnedOf(h.id)) process.stdout.write(`    UNPINNED: ${oneLine(u)}\n`);
    });
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

  registerRunCommand(program);
  registerCheckCommand(program);
  registerListCommand(program);
  registerDoctorCommand(program);
  registerHooksCommand(program);

  // <feature-command-registrations> one `registerXCommand(program);` per feature module, below this line
  registerServeCommand(program);
  registerDemoCommand(program);
  registerTestCommand(program);
  registerInitCommand(program);
  registerDispatchCommand(program);
  registerConvertCommand(program);
  registerTrustCommand(program);
  registerMcpProxyCommand(program);
  registerPolicyServerCommand(program);
  registerInstallCommand(program);

  registerCompletionCommand(program);
  registerSchemaCommand(program);
  addHelpTexts(program);
  return program;
}

/** `run <event>`: fire one event and print the decision. */
function registerRunCommand(program: Command): void {
  addLoadOptions(
    program
      .command('run')
      .description('fire one event through the configured hooks and print the decision')
      .argument('<event>', `event name (${FIRST_EVENT_NAMES.join(', ')}, …)`)
      .option('--payload <file>', 'JSON payload file, or - for stdin')
      .option('--tool <name>', 'tool_name for tool events (default Bash)')
      .option('--input <json>', 'tool_input as JSON (default {"command":"ls"} for Bash, else {})')
      .option('--prompt <text>', 'prompt (UserPromptSubmit, UserPromptExpansion)')
      .option('--response <json>', 'tool_response as JSON (PostToolUse, …; default {})')
      .option('--stop-active', 'stop_hook_active: true (Stop, SubagentStop: a Stop hook already continued the agent)')
      .option('--source <source>', 'source (SessionStart: startup, resume, clear, compact; …)')
      .option('--trigger <trigger>', 'trigger (PreCompact, PostCompact, Setup: manual, auto; …)')
      .option('--message <text>', 'message (Notification)')
      .option('--example', 'print the full payload the hooks would get, and exit without running them')
      .option('-v, --verbose', "show each hook's stdin, stdout and stderr (capped), and every skipped hook")
      .option('--permission-mode <mode>', 'permission mode (default, plan, acceptEdits, bypassPermissions, …)')
      .option('--session-id <id>', 'session id (default: a fresh one)')
      .option('--audit <file>', 'append one JSON line per hook execution to this file')
      .addOption(new Option('--failure-behavior <b>', 'policy for failing hooks').choices(['ignore', 'ask', 'deny']))
      .addOption(new Option('--timeout-behavior <b>', 'policy for timed-out hooks').choices(['ignore', 'ask', 'deny']))
      .option(
        '--mcp-config <file>',
        'MCP servers for mcp_tool hooks: {"mcpServers": {name: {command, args?, env?, cwd?}}} (.mcp.json shape, stdio)',
      )
      .option('--json', 'print the decision as one JSON object'),
  ).action(async (event: string, flags: RunFlags) => {
    const name = await parseEvent(event);
    const { runCommand, RunUsageError } = await import('./run.js');
    try {
      process.exitCode = await runCommand(name, flags);
    } catch (err) {
      if (err instanceof RunUsageError) throw new UsageError(err.message);
      throw err;
    }
  });
}

/** `check [paths...]`: validate settings files; exit 1 on any error. */
function registerCheckCommand(program: Command): void {
  program
    .command('check')
    .description('validate settings files, plugin hooks and directories of them')
    .argument('[paths...]', 'files or directories (default: discovered settings of the current directory)')
    .option('--json', 'print diagnostics as JSON')
    .option('--agent <agent>', 'also warn about hooks this agent never runs (e.g. droid: UserPromptSubmit under droid exec)')
    .action(async (paths: string[], flags: { json?: boolean; agent?: string }) => {
      const { checkPaths } = await import('./check.js');
      const result = await checkPaths(paths, EXECUTABLE_TYPES, flags.agent);
      if (flags.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      else {
        for (const d of result.diagnostics) process.stdout.write(`${formatDiagnostic(d)}\n`);
        const errors = result.diagnostics.filter((d) => d.level === 'error').length;
        const warnings = result.diagnostics.length - errors;
        process.stdout.write(
          `${result.files.length} file(s) checked, ${result.hooks} hook(s), ${errors} error(s), ${warnings} warning(s)\n`,
        );
      }
      process.exitCode = result.diagnostics.some((d) => d.level === 'error') ? 1 : 0;
    });
}

/** `list`: the effective hooks with provenance. */
function registerListCommand(program: Command): void {
  addLoadOptions(
    program
      .command('list')
      .description('list the effective hooks with provenance (after dedup and policy)')
      .option('--event <event>', 'only this event')
      .option('--json', 'print as JSON'),
  ).action(async (flags: LoadFlags & { event?: string; json?: boolean }) => {
    process.exitCode = await listCommand(flags);
  });
}

/** `doctor`: per-hook health report; exit 1 on any error. */
function registerDoctorCommand(program: Command): void {
  addLoadOptions(
    program
      .command('doctor')
      .description(
        "per hook: script exists and is executable, interpreter and tools on PATH, trust, timeouts in ms, Bash syntax under sh; other agents' files",
      )
      .option('--json', 'print the report as JSON'),
  ).action(async (flags: LoadFlags & { json?: boolean }) => {
    const { doctor, formatDoctor } = await import('./doctor.js');
    const report = await doctor(flags);
    process.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : formatDoctor(report));
    process.exitCode = report.errors > 0 ? 1 : 0;
  });
}

/** `hooks`: the terminal UI (interactive only). */
function registerHooksCommand(program: Command): void {
  program
    .command('hooks')
    .description(
      "manage a workspace's hooks in the terminal: by event with source and trust state, view, trust/revoke, pause a session, fire an event",
    )
    .option('--cwd <dir>', 'project directory (default: current directory)')
    .action(async (flags: { cwd?: string }) => {
      if (!process.stdin.isTTY || !process.stdout.isTTY)
        throw new UsageError('hooks is interactive: run it in a terminal (status/trust/revoke/run do the same from scripts)');
      const { hooksTui } = await import('./tui/hooks-tui.js');
      process.exitCode = await hooksTui(flags);
    });
}

/** `completion <shell>`: a completion script built from the program itself. */
function registerCompletionCommand(program: Command): void {
  program
    .command('completion')
    .description('print a shell completion script (commands, flags, event names)')
    .argument('<shell>', 'bash, zsh or fish')
    .action(async (shell: string) => {
      const { completionScript, SHELLS } = await import('./completion.js');
      const script = completionScript(shell, program);
      if (script === undefined) throw new UsageError(`unknown shell "${shell}" (one of ${SHELLS.join(', ')})`);
      process.stdout.write(script);
    });
}

/** `schema`: the settings file's JSON Schema. */
function registerSchemaCommand(program: Command): void {
  program
    .command('schema')
    .description('print the JSON Schema of the settings file')
    .action(async () => {
      const { settingsJsonSchema } = await import('../config/index.js');
      process.stdout.write(`${JSON.stringify(settingsJsonSchema(), null, 2)}\n`);
    });
}

/** Each command's examples and exit codes, and the program's own examples. */
function addHelpTexts(program: Command): void {
  for (const cmd of program.commands) {
    const text = helpText(cmd.name());
    if (text) cmd.addHelpText('after', text);
  }
  program.addHelpText(
    'after',
    '\nExamples:\n  $ agent-hooks run PreToolUse --tool Bash --input \'{"command":"ls"}\' --verbose\n  $ agent-hooks doctor\n  $ agent-hooks <command> --help   # examples and exit codes of one command\n\nShell completion: source <(agent-hooks completion bash)   (zsh, fish: see completion --help)\nFull reference: docs/cli.md\n',
  );
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
