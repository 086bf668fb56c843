/**
 * `startServe`: listen with the panel on loopback (127.0.0.1 unless told otherwise) and return
 * the URL to open, with its token. Node's own HTTP server through @hono/node-server.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { createServeApp, type ServeApp, type ServeOptions } from './app.js';
import { defaultAllowedHosts, hostPort } from './security.js';

export interface StartServeOptions extends ServeOptions {
  /** Address to bind (default 127.0.0.1). Anything but loopback exposes the panel to the network. */
  host?: string;
  /** Port (default 0: any free port). */
  port?: number;
}

export interface RunningServe {
  /** Base URL, e.g. http://127.0.0.1:41234/ */
  url: string;
  /** The URL to open first: sets the token cookie, then redirects to `url`. */
  openUrl: string;
  token: string;
  host: string;
  port: number;
  /** Whether the bound address is loopback. */
  loopback: boolean;
  app: ServeApp;
  server: Server;
  close(): Promise<void>;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export async function startServe(options: StartServeOptions = {}): Promise<RunningServe> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new RangeError(`port must be an integer 0–65535, got ${String(options.port)}`);
  const app = createServeApp(options);
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: host, port }, () => resolve(s as Server)) as Server;
    s.once('error', reject);
  });
  const addr = server.address() as AddressInfo;
  for (const h of defaultAllowedHosts(addr.address, addr.port)) app.allowHost(h);
  if (host !== addr.address) app.allowHost(host, addr.port);
  const base = `http://${hostPort(addr.address, addr.port)}/`;
  return {
    url: base,
    openUrl: `${base}?token=${app.token}`,
    token: app.token,
    host: addr.address,
    port: addr.port,
    loopback: isLoopback(addr.address),
    app,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections?.();
      }),
  };
}
