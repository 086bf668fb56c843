/**
 * `startPolicyServer`: the team's hooks behind HTTP for many agents. Stateless: every instance
 * reads the same config files and tokens file, writes to the same audit sinks, and answers the
 * same event the same way, so any number of them can sit behind a load balancer. The one state
 * that spans events, the per-session counters (Stop-block cap, `once` hooks), is kept in the
 * PostgreSQL audit database when there is one, shared by the instances (./session-counters.ts).
 * TLS when given a certificate and key; close() is the graceful shutdown (stop taking events,
 * answer those running, flush the audit, stop the exporter).
 */
import { readFileSync, watch, type FSWatcher } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { serve } from '@hono/node-server';
import type { SinkSettings } from '../audit/sinks.js';
import { setupObservability, type Observability } from '../telemetry/setup.js';
import { createPolicyApp, type PolicyApp } from './app.js';
import { liveConfig, type LiveConfig } from './config.js';
import { createRateLimiter } from './rate-limit.js';
import { policyCounterStore } from './session-counters.js';
import { readTokensFile, type ClientEntry } from './tokens.js';

export interface PolicyServerOptions {
  /** The team's hook files, any dialect (reloaded on change). */
  configFiles: string[];
  /** `{ clients: [{ id, sha256 }] }` (reloaded on change). */
  tokensFile: string;
  host?: string;
  port?: number;
  /** PEM files: serve HTTPS. */
  tls?: { cert: string; key: string };
  /** Audit sinks; default: `agentHooks.auditSinks` of the config files. */
  auditSinks?: SinkSettings[];
  /** Default per-client rate (events per second; default 200; 0 = unlimited). */
  ratePerSec?: number;
  maxBodyBytes?: number;
  /** Directory hooks run in (default: the current directory). */
  workDir?: string;
  /** Settings `env` for the telemetry switches (default: read from the config files). */
  settingsEnv?: Record<string, string>;
  onWarning?: (message: string) => void;
  /** Max wait for running events on close (ms, default 30,000). */
  drainTimeoutMs?: number;
}

export interface RunningPolicyServer {
  url: string;
  port: number;
  server: Server;
  app: PolicyApp;
  config: LiveConfig;
  observability: Observability;
  /** The per-session counters every engine generation of this instance uses. */
  sessionCounters: ReturnType<typeof policyCounterStore>;
  close(): Promise<void>;
}

export async function startPolicyServer(o: PolicyServerOptions): Promise<RunningPolicyServer> {
  const warn = o.onWarning ?? ((m: string) => process.stderr.write(`agent-hooks policy-server: ${m}\n`));
  const workDir = resolve(o.workDir ?? process.cwd());
  const tokensFile = resolve(o.tokensFile);
  let clients: readonly ClientEntry[] = readTokensFile(tokensFile);

  const { sinks, settingsEnv } = await teamSettings(o, workDir);
  const observability = await setupObservability({ audit: sinks ? { sinks } : undefined, settingsEnv, baseDir: workDir, onWarning: warn });
  // One store for every config generation: a reload keeps the counts.
  const sessionCounters = policyCounterStore(sinks, { onWarning: warn });
  const config = await liveConfig({
    files: o.configFiles,
    workDir,
    // The answer says whether the audit was written (`audited`, app.ts): the engine need not wait too.
    engine: {
      auditWriter: observability.auditWriter,
      auditWaitMs: 0,
      telemetry: observability.telemetry,
      sessionCounters,
      onWarning: warn,
    },
    onWarning: warn,
  });
  if (!config.ready) {
    await config.close();
    await sessionCounters.close();
    await observability.close();
    throw new Error('the team config failed to load (see the messages above)');
  }
  const tokensWatch = watchTokens(
    tokensFile,
    (next) => {
      clients = next;
    },
    warn,
  );

  const app = createPolicyApp({
    config,
    workDir,
    clients: () => clients,
    limiter: createRateLimiter(o.ratePerSec ?? 200),
    maxBodyBytes: o.maxBodyBytes,
    auditWriter: observability.auditWriter,
    onWarning: warn,
  });
  const tls = o.tls ? { cert: readFileSync(o.tls.cert), key: readFileSync(o.tls.key) } : undefined;
  const server = await listen(app, o.host ?? '127.0.0.1', o.port ?? 0, tls);
  const addr = server.address() as AddressInfo;
  const hostInUrl = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  const parts: ServerParts = { server, app, config, observability, sessionCounters, tokensWatch, options: o };
  let closing: Promise<void> | undefined;
  return {
    url: `${tls ? 'https' : 'http'}://${hostInUrl}:${addr.port}`,
    port: addr.port,
    server,
    app,
    config,
    observability,
    sessionCounters,
    close: () => (closing ??= gracefulClose(parts)),
  };
}

/** Sinks and telemetry come from the config files unless given: read them once, up front. */
async function teamSettings(
  o: PolicyServerOptions,
  workDir: string,
): Promise<{ sinks: SinkSettings[] | undefined; settingsEnv: Record<string, string> | undefined }> {
  let sinks = o.auditSinks;
  let settingsEnv = o.settingsEnv;
  if (!sinks || !settingsEnv) {
    const { loadConfig } = await import('../config/index.js');
    const c = await loadConfig({ cwd: workDir, projectDir: workDir, discover: false, settingsFiles: o.configFiles.map((f) => resolve(f)) });
    sinks ??= c.options.auditSinks;
    settingsEnv ??= c.env;
  }
  return { sinks, settingsEnv };
}

/** Reload the tokens file on change; a bad reload keeps the previous clients. */
function watchTokens(tokensFile: string, set: (clients: readonly ClientEntry[]) => void, warn: (m: string) => void): FSWatcher | undefined {
  try {
    return watch(tokensFile, () => {
      try {
        set(readTokensFile(tokensFile));
      } catch (err) {
        warn(`tokens file reload failed, keeping the previous clients: ${(err as Error).message}`);
      }
    });
  } catch (err) {
    warn(`cannot watch ${tokensFile}: ${(err as Error).message}`);
    return undefined;
  }
}

async function listen(app: PolicyApp, host: string, port: number, tls: { cert: Buffer; key: Buffer } | undefined): Promise<Server> {
  const server = await new Promise<Server>((resolveServer, reject) => {
    const s = serve(
      { fetch: app.fetch, hostname: host, port, ...(tls ? { createServer: createHttpsServer, serverOptions: tls } : {}) },
      () => resolveServer(s as Server),
    ) as Server;
    s.once('error', reject);
  });
  // Keep-alive connections from many agents: idle ones are closed on shutdown, busy ones finish.
  server.keepAliveTimeout = 5000;
  return server;
}

/** What close() stops, in order. */
interface ServerParts {
  server: Server;
  app: PolicyApp;
  config: LiveConfig;
  observability: Observability;
  sessionCounters: { close(): Promise<void> };
  tokensWatch: FSWatcher | undefined;
  options: PolicyServerOptions;
}

/** Stop taking events, answer those running (up to the drain timeout), then stop the rest. */
async function gracefulClose(p: ServerParts): Promise<void> {
  const { server } = p;
  const closed = new Promise<void>((r) => server.close(() => r()));
  server.closeIdleConnections?.();
  let t: NodeJS.Timeout | undefined;
  await Promise.race([p.app.drain(), new Promise<void>((r) => (t = setTimeout(r, p.options.drainTimeoutMs ?? 30_000)))]);
  if (t) clearTimeout(t);
  // The last answers are still being written: let their connections go idle, then close them.
  const idle = setInterval(() => server.closeIdleConnections?.(), 50);
  let hard: NodeJS.Timeout | undefined;
  await Promise.race([closed, new Promise<void>((r) => (hard = setTimeout(r, 2000)))]);
  clearInterval(idle);
  if (hard) clearTimeout(hard);
  server.closeAllConnections?.();
  await closed;
  p.tokensWatch?.close();
  await p.config.close();
  await p.sessionCounters.close();
  await p.observability.close();
}
