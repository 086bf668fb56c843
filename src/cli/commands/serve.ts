/**
 * `agent-hooks serve`: the trust review panel and session API on loopback (docs/serve.md).
 *
 * Standalone: workspaces are the --workspace directories (default: the current directory) plus
 * the ones recorded in the trust store; sessions are those in the --audit log plus paused ones;
 * pausing writes the pause file that `agent-hooks dispatch` reads on every call.
 * Runs until SIGINT or SIGTERM. Exit 1 on a usage error or when the address cannot be bound.
 */
import { existsSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { Command } from 'commander';

interface ServeFlags {
  workspace?: string[];
  storeWorkspaces?: boolean;
  audit?: string;
  auditPostgresEnv?: string;
  auditTable?: string;
  pauseFile?: string;
  host?: string;
  port?: string;
  allowedHost?: string[];
  managedSettings?: string;
  json?: boolean;
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function version(): string | undefined {
  try {
    return (createRequire(import.meta.url)('../../../package.json') as { version?: string }).version;
  } catch {
    return undefined;
  }
}

async function serveCommand(flags: ServeFlags): Promise<number> {
  const workspaces = (flags.workspace ?? [process.cwd()]).map((d) => resolve(d));
  for (const d of workspaces) {
    if (!existsSync(d) || !statSync(d).isDirectory()) {
      process.stderr.write(`agent-hooks serve: --workspace ${d}: not a directory\n`);
      return 1;
    }
  }
  const port = flags.port === undefined ? 0 : Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`agent-hooks serve: --port must be an integer 0–65535, got ${flags.port}\n`);
    return 1;
  }
  const { startServe } = await import('../../serve/server.js');
  let running: Awaited<ReturnType<typeof startServe>>;
  try {
    running = await startServe({
      workspaces,
      storeWorkspaces: flags.storeWorkspaces !== false,
      ...(flags.audit ? { auditFile: resolve(flags.audit) } : {}),
      // The connection string comes from an environment variable: a password never sits in argv.
      ...(flags.auditPostgresEnv && process.env[flags.auditPostgresEnv]
        ? { auditPostgres: { url: process.env[flags.auditPostgresEnv]!, ...(flags.auditTable ? { table: flags.auditTable } : {}) } }
        : {}),
      ...(flags.pauseFile ? { pauseFile: resolve(flags.pauseFile) } : {}),
      ...(flags.managedSettings ? { managedSettingsPath: resolve(flags.managedSettings) } : {}),
      ...(flags.host ? { host: flags.host } : {}),
      port,
      version: version(),
      onWarning: (m) => process.stderr.write(`agent-hooks serve: warning: ${m}\n`),
    });
  } catch (e) {
    process.stderr.write(`agent-hooks serve: cannot listen on ${flags.host ?? '127.0.0.1'}:${port}: ${(e as Error).message}\n`);
    return 1;
  }
  for (const h of flags.allowedHost ?? []) {
    // `name:port` gives its own port; a bare IPv6 address (`::1`) ends in digits after a colon too.
    if (/:\d+$/.test(h) && !h.endsWith(']') && isIP(h) !== 6) running.app.allowHost(h);
    else running.app.allowHost(h.replace(/^\[|\]$/g, ''), running.port);
  }
  if (!running.loopback) {
    process.stderr.write(
      `agent-hooks serve: warning: listening on ${running.host}, not loopback — anyone who can reach this address and learns the token can trust hooks; traffic is plain HTTP\n`,
    );
  }
  const info = (await (
    await running.app.fetch(
      new Request(`${running.url}api/info`, { headers: { host: new URL(running.url).host, authorization: `Bearer ${running.token}` } }),
    )
  ).json()) as { pauseFile: string | null; store: string };
  if (flags.json) {
    process.stdout.write(
      `${JSON.stringify({ url: running.url, openUrl: running.openUrl, token: running.token, host: running.host, port: running.port, pauseFile: info.pauseFile, store: info.store, auditFile: flags.audit ? resolve(flags.audit) : null })}\n`,
    );
  } else {
    process.stdout.write(
      [
        `agent-hooks serve: trust review panel on ${running.url}`,
        `  open:       ${running.openUrl}`,
        `  token:      ${running.token}  (API: Authorization: Bearer <token>; the page keeps it in a cookie after the first visit)`,
        `  workspaces: ${workspaces.join(', ')}${flags.storeWorkspaces === false ? '' : ' + those in the trust store'}`,
        `  trust store: ${info.store}`,
        `  audit log:  ${flags.audit ? resolve(flags.audit) : '(none; pass --audit FILE to see sessions and the timeline)'}`,
        `  sessions:   pausing writes ${info.pauseFile}, which agent-hooks dispatch reads on every call`,
        'Ctrl-C stops it.',
        '',
      ].join('\n'),
    );
  }
  await new Promise<void>((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void running.close().then(done);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  return 0;
}

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('web panel to review and trust hooks, pause sessions and read the audit log (loopback only by default)')
    .option('--workspace <dir>', 'workspace to review (repeatable; default: the current directory)', collect)
    .option('--no-store-workspaces', 'do not also list the workspaces recorded in the trust store')
    .option('--audit <file>', 'audit log to read (what `run --audit` / `dispatch --audit` write)')
    .option(
      '--audit-postgres-env <var>',
      "read the team's audit from PostgreSQL: the variable holding the connection string (docs/teams.md)",
    )
    .option('--audit-table <name>', 'audit table in PostgreSQL (default agent_hooks_audit)')
    .option('--pause-file <file>', 'pause file shared with `agent-hooks dispatch` (default: next to the trust store)')
    .option('--host <address>', 'address to bind (default 127.0.0.1; anything else exposes the panel to the network)')
    .option('--port <n>', 'port (default 0: any free port)')
    .option('--allowed-host <name>', 'also accept this Host header name, e.g. behind a local proxy (repeatable)', collect)
    .option('--managed-settings <file>', 'managed policy settings file')
    .option('--json', 'print the URL, token and files as one JSON line at start')
    .action(async (flags: ServeFlags) => {
      process.exitCode = await serveCommand(flags);
    });
}
