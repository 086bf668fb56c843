/**
 * `agent-hooks mcp-proxy [--settings FILE]... -- <server command...>`: a stdio MCP server that
 * fronts a real one and runs hooks on its tool calls and elicitations, for any MCP client
 * (docs/mcp-proxy.md). The relay itself is src/host/mcp/proxy.ts.
 *
 * stdout belongs to the MCP protocol: everything we say goes to stderr. Exit code: the server's
 * when it ended the session, 0 when the client did, 1 when the proxy could not start.
 */
import { randomUUID } from 'node:crypto';
import { basename, extname, resolve } from 'node:path';
import type { Command } from 'commander';
import type { ProcessGroupStdioTransport, StdioServerProcess } from '../../backends/stdio-transport.js';
import type { HookEngine } from '../../engine/engine.js';
import type { McpProxy } from '../../host/mcp/proxy.js';
import type { LoadFlags } from '../../load/from-flags.js';
import { formatDiagnostic } from '../../util/format-diagnostic.js';
import { forTerminal } from '../../util/terminal-text.js';

interface ProxyFlags extends LoadFlags {
  name?: string;
  permissionMode?: string;
  sessionId?: string;
  audit?: string;
  advertiseElicitation?: boolean;
  drainMs?: string;
  quiet?: boolean;
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** `node`, `/usr/bin/python3`, `server.exe` → node, python3, server. */
function defaultServerName(command: string): string {
  const base = basename(command);
  const ext = extname(base);
  return ext && ext !== base ? base.slice(0, -ext.length) : base;
}

export function registerMcpProxyCommand(program: Command): void {
  program
    .command('mcp-proxy')
    .description(
      'run an MCP server behind hooks: PreToolUse/PostToolUse/PostToolUseFailure on tools/call, Elicitation/ElicitationResult on elicitations',
    )
    .argument('<server...>', 'the real server command and its arguments, after --')
    .option('--settings <file>', 'settings file with a "hooks" object, any dialect (repeatable; default: discover like `run`)', collect)
    .option('--plugin <dir>', 'plugin directory with hooks/hooks.json (repeatable)', collect)
    .option('--cwd <dir>', "hooks' project directory and payload cwd (default: current directory)")
    .option('--discover', 'also read user, project, local and managed settings (default when no --settings is given)')
    .option('--managed-settings <file>', 'managed policy settings file')
    .option('--name <name>', 'server name: tools are mcp__<name>__<tool>, Elicitation matches it (default: basename of the server command)')
    .option('--permission-mode <mode>', 'permission_mode of the payloads (plan skips PreToolUse/PostToolUse)', 'default')
    .option('--session-id <id>', 'session_id of the payloads (default: one per proxy run)')
    .option('--audit <file>', 'append one JSON line per hook execution to this file')
    .option(
      '--advertise-elicitation',
      'announce form elicitation to the server even when the client lacks it (default: when Elicitation hooks exist)',
    )
    .option('--no-advertise-elicitation', 'never announce elicitation support the client does not have')
    .option(
      '--drain-ms <ms>',
      'at EOF, how long each shutdown phase may wait for work in hand: hooks being judged, the server answering (default 500 for hooks, 1500 for the server)',
    )
    .option('-q, --quiet', 'do not log hook decisions to stderr')
    .action(async (server: string[], flags: ProxyFlags) => {
      process.exitCode = await mcpProxyMain(server, flags);
    });
}

async function mcpProxyMain(serverCommand: string[], flags: ProxyFlags): Promise<number> {
  const say = (line: string) => process.stderr.write(`agent-hooks mcp-proxy: ${line}\n`);
  const [command, ...args] = serverCommand;
  if (!command) {
    say('no server command given (usage: agent-hooks mcp-proxy [options] -- <command> [args...])');
    return 1;
  }
  const [{ loadFromFlags }, { engineOptionsFromConfig }] = await Promise.all([
    import('../../load/from-flags.js'),
    import('../../load/engine-options.js'),
  ]);
  const config = await loadFromFlags(flags);
  for (const d of config.diagnostics) say(formatDiagnostic(d));
  if (config.diagnostics.some((d) => d.level === 'error')) return 1;

  const drainMs = flags.drainMs === undefined ? undefined : Number(flags.drainMs);
  if (drainMs !== undefined && !(Number.isSafeInteger(drainMs) && drainMs > 0)) {
    say(`--drain-ms: must be a positive whole number of milliseconds, got ${JSON.stringify(flags.drainMs)}`);
    return 1;
  }
  const cwd = resolve(flags.cwd ?? process.cwd());
  const name = flags.name ?? defaultServerName(command);
  const sessionId = flags.sessionId ?? `mcp-proxy-${randomUUID()}`;
  const modules = await proxyModules(say);
  if (!modules) return 1;
  const [{ createHookEngine }, { createMcpProxy }, { ProcessGroupStdioTransport }, { StdioServerTransport }] = modules;
  const engine = createHookEngine({
    hooks: config.hooks,
    projectDir: cwd,
    cwd,
    sessionId,
    ...engineOptionsFromConfig(config),
    audit: flags.audit ? resolve(flags.audit) : undefined,
    onWarning: flags.quiet ? undefined : (m) => say(`warning: ${m}`),
  });
  const serverTransport = new ProcessGroupStdioTransport(serverTransportOptions(command, args, drainMs));
  const clientTransport = new StdioServerTransport(process.stdin, process.stdout);
  const proxy = createMcpProxy({
    name,
    hooks: engine,
    client: clientTransport,
    server: serverTransport,
    hookInput: () => ({ session_id: sessionId, transcript_path: '', cwd, permission_mode: flags.permissionMode ?? 'default' }),
    // The mode is the payload's, reported for the agent behind the proxy (as under dispatch).
    runContext: () => ({ sessionId, cwd }),
    advertiseElicitation: flags.advertiseElicitation ?? engine.list('Elicitation').length > 0,
    drainMs,
    onLog: flags.quiet ? undefined : say,
  });
  return relay({ proxy, engine, serverTransport, command, say });
}

/** The engine, the relay and both transports, behind the MCP SDK's own "is it installed" check. */
async function proxyModules(say: (line: string) => void) {
  const { importMcpSdk } = await import('../../mcp/sdk.js');
  try {
    return await importMcpSdk('agent-hooks mcp-proxy', () =>
      Promise.all([
        import('../../engine/engine.js'),
        import('../../host/mcp/proxy.js'),
        import('../../backends/stdio-transport.js'),
        import('@modelcontextprotocol/sdk/server/stdio.js'),
      ]),
    );
  } catch (err) {
    say((err as Error).message);
    return undefined;
  }
}

/**
 * The server is the client's own: it gets our whole environment and working directory, as it
 * would without the proxy. Only hooks get the minimal environment.
 */
function serverTransportOptions(command: string, args: string[], drainMs: number | undefined): StdioServerProcess {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return {
    command,
    args,
    cwd: process.cwd(),
    env,
    // A server that just started may need a moment to answer what it read before EOF; but a client
    // that closed our stdin signals us after ~2 s and kills us after ~4 s (then the server's group
    // could no longer be ended), so a signal during shutdown hurries it (see `relay`).
    shutdownGraceMs: drainMs ?? 1500,
    killGraceMs: 500,
    maxMessageBytes: 64 * 1024 * 1024,
    stderrTailBytes: 4096,
    onStderr: (chunk) => process.stderr.write(forTerminal(String(chunk))),
  };
}

/** What `relay` runs and ends. */
interface Relay {
  proxy: McpProxy;
  engine: HookEngine;
  serverTransport: ProcessGroupStdioTransport;
  command: string;
  say: (line: string) => void;
}

/** Signal the server's process group (gone already is fine). */
function signalServer(t: ProcessGroupStdioTransport, signal: NodeJS.Signals): void {
  const pid = t.pid;
  if (pid === undefined || t.exit) return;
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, signal);
  } catch {
    // gone
  }
}

/** Start the relay, end it when the client goes away or a signal comes, and answer the exit code. */
async function relay(r: Relay): Promise<number> {
  const { proxy, engine, serverTransport, say } = r;
  // Last resort if we die without closing (an uncaught error): the server's group goes with us.
  const killServer = () => signalServer(serverTransport, 'SIGKILL');
  process.once('exit', killServer);
  try {
    await proxy.start();
  } catch (err) {
    say(`could not start the server (${r.command}): ${(err as Error).message}`);
    await proxy.close();
    await engine.close();
    return 1;
  }
  let stopping = false;
  const stop = () => {
    stopping = true;
    void proxy.close();
  };
  // A signal while we are already stopping (the client's SIGTERM after it closed our stdin): no more grace.
  const onSignal = () => {
    if (stopping) signalServer(serverTransport, 'SIGTERM');
    stop();
  };
  // The SDK's stdio server transport does not notice the client going away; we do.
  process.stdin.once('end', stop);
  process.stdin.once('close', stop);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  process.once('SIGHUP', onSignal);

  const { by } = await proxy.done;
  process.stdin.off('end', stop);
  process.stdin.off('close', stop);
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  process.off('SIGHUP', onSignal);
  process.off('exit', killServer);
  await engine.close();
  process.stdin.destroy();
  if (by !== 'server') return 0;
  const exit = serverTransport.exit;
  if (!exit) return 0;
  if (exit.code !== null && exit.code !== 0) say(`the server exited with code ${exit.code}`);
  if (exit.signal) say(`the server was killed by ${exit.signal}`);
  return exit.code ?? 1;
}
