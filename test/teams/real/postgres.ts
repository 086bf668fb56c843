/**
 * A throwaway PostgreSQL server for one test file: Debian's binaries, a temp data dir, a loopback
 * port, trust auth for one user. Tests run as root in CI and PostgreSQL refuses to run as root,
 * so the server runs as the `postgres` (else `nobody`) user through runuser.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestPostgres {
  url: string;
  port: number;
  stop(): void;
  start(): void;
  /** Stop the server for `ms` milliseconds, then start it again (synchronously: pg_ctl -w). */
  restart(): void;
  destroy(): void;
}

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0)
    throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql (apt-get install postgresql; .ci/run does)');
  return join(root, versions[0]!, 'bin');
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function runAs(user: string | undefined, cmd: string, args: string[]): void {
  const full = user ? (['runuser', ['-u', user, '--', cmd, ...args]] as const) : ([cmd, args] as const);
  const r = spawnSync(full[0], full[1] as string[], { encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr}${r.stdout}`);
}

export async function startPostgres(): Promise<TestPostgres> {
  const bin = binDir();
  const isRoot = process.getuid?.() === 0;
  const user = isRoot ? (spawnSync('id', ['-u', 'postgres']).status === 0 ? 'postgres' : 'nobody') : undefined;
  const dir = mkdtempSync(join(tmpdir(), 'ah-pg-'));
  const data = join(dir, 'data');
  if (user) {
    const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  runAs(user, join(bin, 'initdb'), ['-D', data, '-U', 'agent', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
  const start = () => runAs(user, join(bin, 'pg_ctl'), ['-D', data, '-o', opts, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
  const stop = () => runAs(user, join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
  start();
  let running = true;
  return {
    url: `postgres://agent@127.0.0.1:${port}/postgres`,
    port,
    start() {
      start();
      running = true;
    },
    stop() {
      stop();
      running = false;
    },
    restart() {
      stop();
      start();
    },
    destroy() {
      try {
        if (running) stop();
      } finally {
        running = false;
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
