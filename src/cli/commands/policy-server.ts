/**
 * `agent-hooks policy-server`: the team's central hooks over HTTP for many agents (docs/teams.md).
 * `agent-hooks policy-server token --id NAME` makes a client token and its tokens-file entry.
 * Runs until SIGTERM/SIGINT, then shuts down gracefully (running events are answered first).
 */
import type { Command } from 'commander';

interface PolicyServerFlags {
  config: string[];
  tokens: string;
  host?: string;
  port?: string;
  tlsCert?: string;
  tlsKey?: string;
  rate?: string;
  maxBody?: string;
  json?: boolean;
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

async function policyServerCommand(flags: PolicyServerFlags): Promise<number> {
  if ((flags.tlsCert === undefined) !== (flags.tlsKey === undefined)) {
    process.stderr.write('agent-hooks policy-server: --tls-cert and --tls-key go together\n');
    return 1;
  }
  const num = (v: string | undefined, name: string) => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number ≥ 0, got ${JSON.stringify(v)}`);
    return n;
  };
  const { startPolicyServer } = await import('../../policy-server/server.js');
  let running: Awaited<ReturnType<typeof startPolicyServer>>;
  try {
    running = await startPolicyServer({
      configFiles: flags.config,
      tokensFile: flags.tokens,
      host: flags.host,
      port: num(flags.port, '--port'),
      ratePerSec: num(flags.rate, '--rate'),
      maxBodyBytes: num(flags.maxBody, '--max-body'),
      ...(flags.tlsCert && flags.tlsKey ? { tls: { cert: flags.tlsCert, key: flags.tlsKey } } : {}),
    });
  } catch (err) {
    process.stderr.write(`agent-hooks policy-server: ${(err as Error).message}\n`);
    return 1;
  }
  process.stdout.write(
    flags.json
      ? `${JSON.stringify({ url: running.url, port: running.port, pid: process.pid })}\n`
      : `agent-hooks policy-server listening on ${running.url}\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      void running.close().then(resolve);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
  return 0;
}

export function registerPolicyServerCommand(program: Command): void {
  const cmd = program
    .command('policy-server')
    .description("serve a team's central hooks over HTTP to many agents (docs/teams.md)")
    .option('--config <file>', "the team's hook file, any dialect (repeatable; reloaded on change)", collect)
    .option('--tokens <file>', 'client tokens file: {"clients":[{"id","sha256"}]} (reloaded on change)')
    .option('--host <addr>', 'address to bind (default 127.0.0.1)')
    .option('--port <n>', 'port (default: any free port)')
    .option('--tls-cert <file>', 'PEM certificate: serve HTTPS')
    .option('--tls-key <file>', 'PEM private key for --tls-cert')
    .option('--rate <n>', 'events per second allowed to each client (default 200; 0 = unlimited)')
    .option('--max-body <bytes>', 'request body cap (default 1048576)')
    .option('--json', 'print {"url","port","pid"} once listening')
    .action(async (flags: PolicyServerFlags) => {
      if (!flags.config?.length || !flags.tokens) {
        process.stderr.write('agent-hooks policy-server: --config <file> and --tokens <file> are required\n');
        process.exitCode = 1;
        return;
      }
      process.exitCode = await policyServerCommand(flags);
    });
  cmd
    .command('token')
    .description('make a client token; prints the token (give it to the client) and the entry for the tokens file')
    .requiredOption('--id <name>', 'client identity recorded in every decision')
    .action(async (flags: { id: string }) => {
      const { newToken } = await import('../../policy-server/tokens.js');
      const t = newToken(flags.id);
      process.stdout.write(`${JSON.stringify({ token: t.token, entry: t.entry })}\n`);
    });
}
