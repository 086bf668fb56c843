/** Real loopback HTTP/HTTPS servers for the HTTP and prompt backend tests (127.0.0.1 only). */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { join } from 'node:path';

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** TLS SNI the client sent (https only). */
  servername?: string | false;
}

export type Route = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export interface TestServer {
  port: number;
  origin: string;
  requests: SeenRequest[];
  /** TCP connections accepted so far (before any TLS handshake). */
  connections: number;
  close(): Promise<void>;
}

export async function startServer(route: Route, tls?: { key: string; cert: string }): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        servername: tls ? ((req.socket as TLSSocket).servername ?? undefined) : undefined,
      });
      route(req, res, body);
    });
  };
  const server: Server = tls ? createHttpsServer({ key: tls.key, cert: tls.cert }, handler) : createHttpServer(handler);
  const state = { connections: 0 };
  // Raw TCP connections, counted before any TLS handshake.
  server.on('connection', (s: Socket) => {
    state.connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    requests,
    get connections() {
      return state.connections;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A loopback port with nothing listening (bound, then released). */
export async function closedPort(): Promise<number> {
  const srv = createNetServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as AddressInfo).port;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

export const HAS_OPENSSL = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** A self-signed certificate for hooks.test and 127.0.0.1, made with the openssl CLI. */
export function selfSignedCert(dir: string): { key: string; cert: string } {
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  if (!existsSync(cert)) {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=hooks.test',
        '-addext',
        'subjectAltName=DNS:hooks.test,IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
  }
  return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
