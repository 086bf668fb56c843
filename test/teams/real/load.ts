/** Helpers of the load test: policy-server instances as child processes, and a round-robin proxy. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import { join } from 'node:path';

const BIN = join(import.meta.dirname, '../../../dist/cli/bin.cjs');

export interface Instance {
  url: string;
  child: ChildProcess;
  stderr: () => string;
  /** Ends the instance: SIGTERM (graceful) or SIGKILL. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Every instance started, so afterAll can end them even when a test timed out before its own cleanup. */
export const started = new Set<ChildProcess>();

export function killStarted(): void {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  started.clear();
}

export function startInstance(args: string[], cwd: string): Promise<Instance> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'policy-server', '--json', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    started.add(child);
    let out = '';
    let err = '';
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.stderr!.on('data', (d) => (err += d));
    child.stdout!.on('data', (d) => {
      out += d;
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) {
        try {
          const { url } = JSON.parse(line) as { url: string };
          resolve({
            url,
            child,
            stderr: () => err,
            async stop(signal = 'SIGTERM') {
              if (child.exitCode === null && child.signalCode === null) child.kill(signal);
              await exited;
            },
          });
        } catch (e) {
          reject(e as Error);
        }
      }
    });
    child.once('exit', (code) => reject(new Error(`policy-server exited (${code}) before listening: ${err}`)));
  });
}

/**
 * A loopback round-robin balancer: each request to the next backend. Like any real balancer's
 * passive health check, a backend that refused a connection is skipped for a second; the request
 * that met the failure answers 502 (the client retries it).
 */
export async function roundRobin(backends: () => string[]): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  let next = 0;
  const downUntil = new Map<string, number>();
  const server = createServer((req, res) => {
    const all = backends();
    const alive = all.filter((b) => (downUntil.get(b) ?? 0) <= Date.now());
    const list = alive.length > 0 ? alive : all;
    const backend = list[next++ % list.length]!;
    const target = new URL(req.url ?? '/', backend);
    const up = request(target, { method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNREFUSED' || err.code === 'ECONNRESET') downUntil.set(backend, Date.now() + 1000);
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end('{"error":"backend unreachable"}');
    });
    req.pipe(up);
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    server,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/** Run `total` jobs with `concurrency` workers; job i gets its index. */
export async function pool(total: number, concurrency: number, job: (i: number, worker: number) => Promise<void>): Promise<void> {
  let i = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      while (i < total) await job(i++, w);
    }),
  );
}
