/**
 * HTTP hook backend: POST the hook input as JSON to the hook's URL and normalize the reply.
 *
 * The target policy (src/net/target-policy.ts) runs first; the connection then goes to an
 * address it checked (pinned: the socket is opened to that IP, with the original host name
 * kept for the Host header and TLS SNI/certificate checks), so DNS cannot change the answer
 * between check and connect. No proxy, no redirects, no connection reuse across hooks.
 *
 * Reply → ExecutionResult (the reference's "HTTP response handling"):
 *   2xx, empty body          → completed, exit 0, no output
 *   2xx, one JSON object     → completed, exit 0, the body as stdout (parsed like command stdout)
 *   2xx, any other body      → error (non-blocking; failure policy applies)
 *   3xx                      → error: redirects are not followed
 *   other non-2xx            → error (exit 1)
 *   connection/TLS failure   → error
 *   timeout                  → timeout
 *   body over the cap        → error, stdoutTruncated
 */
import { makeResult } from './result.js';
import { startDeadline } from './deadline.js';
import { nowMs } from '../util/clock.js';
import { buildConnector, Client } from 'undici';
import type { Backend, BackendContext } from './types.js';
import { checkHttpTarget, describeUrl, type ResolvedAddress, type Resolver } from '../net/target-policy.js';
import { parseJsonObject } from '../parse/output.js';
import type { ExecutionResult, HttpHandler, NormalizedHook } from '../types.js';
import { encodeHookPayload } from './payload.js';

const DEFAULT_HTTP_RESPONSE_LIMIT_BYTES = 256 * 1024;

/** Where a socket is about to be opened; handed to `onConnect` before the connection starts. */
export interface ConnectTarget {
  /** The checked address the socket goes to. */
  address: string;
  family: 4 | 6;
  port: number;
  /** Host name from the URL (Host header, SNI). */
  host: string;
  tls: boolean;
  insecureTLS: boolean;
}

export interface HttpBackendOptions {
  /** Host name resolver (default: dns.promises.lookup with all: true). */
  resolve?: Resolver;
  /** Managed URL allowlist (merged over settings layers); undefined = no restriction, [] = none allowed. */
  allowedHttpHookUrls?: readonly string[];
  /** When set, only these variables may be interpolated into headers (on top of the hook's allowedEnvVars). */
  httpHookAllowedEnvVars?: readonly string[];
  /** Environment headers are interpolated from (default process.env); the session env is laid over it. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Called right before a socket is opened; throwing refuses the connection (test seam, audit). */
  onConnect?: (target: ConnectTarget) => void;
  /** Response body cap (default 256 KiB); a larger body is an error. */
  maxResponseBytes?: number;
}

/** Headers the engine owns: a hook may not set them (framing, routing, hop-by-hop). */
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-authorization',
  'proxy-connection',
]);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * `$VAR` / `${VAR}` in a header value → the variable's value when the name is allowed,
 * else the empty string (the reference: unlisted variables become empty).
 */
function interpolateHeader(value: string, env: Readonly<Record<string, string | undefined>>, allowed: ReadonlySet<string>): string {
  return value.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (_m, braced: string | undefined, bare: string | undefined) => {
      const name = (braced ?? bare)!;
      return allowed.has(name) ? (env[name] ?? '') : '';
    },
  );
}

/** The hook's headers after interpolation, or a problem (never containing a header value). */
export function buildHeaders(
  handler: Pick<HttpHandler, 'headers' | 'allowedEnvVars'>,
  env: Readonly<Record<string, string | undefined>>,
  globalAllowed?: readonly string[],
): { ok: true; headers: Record<string, string> } | { ok: false; reason: string } {
  const allowed = new Set((handler.allowedEnvVars ?? []).filter((n) => !globalAllowed || globalAllowed.includes(n)));
  const headers: Record<string, string> = {};
  for (const [name, raw] of Object.entries(handler.headers ?? {})) {
    if (!TOKEN.test(name)) return { ok: false, reason: `headers: ${JSON.stringify(name)} is not a valid header name` };
    const lower = name.toLowerCase();
    if (RESERVED_HEADERS.has(lower) || lower.startsWith('proxy-')) {
      return { ok: false, reason: `headers.${name}: set by the engine, a hook may not set it` };
    }
    if (lower === 'content-type') continue; // always application/json
    const value = interpolateHeader(String(raw), env, allowed);
    // Checked after interpolation: an environment value must not smuggle a second header.
    if (/[\r\n\0]/.test(value)) {
      return { ok: false, reason: `headers.${name}: value contains a line break or NUL after interpolation; request not sent` };
    }
    headers[lower] = value;
  }
  return { ok: true, headers };
}

function result(partial: Partial<ExecutionResult> & Pick<ExecutionResult, 'status'>, start: number): ExecutionResult {
  return makeResult(partial, start);
}

/** A failure message without anything that could be a secret (no header values, no query). */
function describeError(err: unknown): string {
  const e = err as NodeJS.ErrnoException & { cause?: unknown };
  const inner = (e?.cause ?? e) as NodeJS.ErrnoException;
  const code = inner?.code ?? e?.code;
  const msg = inner?.message ?? String(inner);
  return code && !msg.includes(code) ? `${code}: ${msg}` : msg;
}

type Checked = Extract<Awaited<ReturnType<typeof checkHttpTarget>>, { ok: true }>;
type HttpCtx = Pick<BackendContext, 'timeoutMs' | 'signal' | 'sessionEnv' | 'stdinLimitBytes'>;

/** Everything one request needs once the target and headers passed their checks. */
interface PreparedRequest {
  url: URL;
  /** The URL as messages show it (`describeUrl`: no userinfo, no query). */
  shown: string;
  headers: Record<string, string>;
  body: { text: string; truncated: boolean };
  connect: buildConnector.connector;
  limit: number;
}

function httpFailure(start: number, error: string, extra: Partial<ExecutionResult> = {}): ExecutionResult {
  return result({ status: 'error', error: `HTTP hook: ${error}`, ...extra }, start);
}

/** Run one HTTP hook. Exposed for direct use; `httpBackend` wraps it for the engine. */
export async function runHttpHook(
  handler: HttpHandler,
  payload: Record<string, unknown>,
  ctx: HttpCtx,
  options: HttpBackendOptions = {},
): Promise<ExecutionResult> {
  const start = nowMs();
  if (ctx.signal?.aborted) return result({ status: 'aborted', error: 'HTTP hook: cancelled before it started' }, start);

  const target = await checkHttpTarget({
    url: handler.url,
    allowedHosts: handler.allowedHosts,
    allowedHttpHookUrls: options.allowedHttpHookUrls,
    resolve: options.resolve,
  });
  if (!target.ok) return httpFailure(start, target.reason);
  const req = prepareRequest(handler, payload, ctx, options, target);
  if ('reason' in req) return httpFailure(start, req.reason, req.engineFault ? { engineFault: true } : {});

  const deadline = startDeadline(ctx.timeoutMs, ctx.signal);
  const client = new Client(req.url.origin, {
    connect: req.connect,
    headersTimeout: ctx.timeoutMs + 1000,
    bodyTimeout: ctx.timeoutMs + 1000,
    pipelining: 0,
  });
  const stdinTruncated = req.body.truncated;
  try {
    return await exchange(client, req, deadline.signal, start);
  } catch (err) {
    if (deadline.timedOut)
      return result(
        { status: 'timeout', error: `HTTP hook: ${req.shown} did not answer within ${ctx.timeoutMs} ms`, stdinTruncated },
        start,
      );
    if (ctx.signal?.aborted) return result({ status: 'aborted', error: 'HTTP hook: cancelled', stdinTruncated }, start);
    return httpFailure(start, `request to ${req.shown} failed: ${describeError(err)}`, { stdinTruncated });
  } finally {
    deadline.dispose();
    client.destroy().catch(() => {});
  }
}

/** Headers, body and the pinned connector for a checked target, or why the request is not sent. */
function prepareRequest(
  handler: HttpHandler,
  payload: Record<string, unknown>,
  ctx: HttpCtx,
  options: HttpBackendOptions,
  target: Checked,
): PreparedRequest | { reason: string; engineFault?: true } {
  const { url } = target;
  const shown = describeUrl(url);
  const env = { ...(options.env ?? process.env), ...ctx.sessionEnv };
  const built = buildHeaders(handler, env, options.httpHookAllowedEnvVars);
  if (!built.ok) return { reason: built.reason };
  const body = encodeHookPayload(payload, ctx.stdinLimitBytes);
  // Never a shortened command or file content: not sent, the engine's failure (fails closed where it can block).
  if (body.refused !== undefined) return { reason: body.refused, engineFault: true };
  const tls = url.protocol === 'https:';
  const insecureTLS = tls && handler.allowInsecureTLS === true;
  const connect = pinnedConnector(target, {
    port: Number(url.port || (tls ? 443 : 80)),
    tls,
    insecureTLS,
    timeoutMs: ctx.timeoutMs,
    onConnect: options.onConnect,
  });
  const limit = options.maxResponseBytes ?? DEFAULT_HTTP_RESPONSE_LIMIT_BYTES;
  return { url, shown, headers: built.headers, body, connect, limit };
}

/** A connector that opens sockets only to the checked addresses, in order; DNS is never consulted again. */
function pinnedConnector(
  target: Checked,
  how: { port: number; tls: boolean; insecureTLS: boolean; timeoutMs: number; onConnect: HttpBackendOptions['onConnect'] },
): buildConnector.connector {
  const { port, tls, insecureTLS } = how;
  // An IP-literal URL has no name to send as SNI.
  const servername = target.addresses.some((a) => a.address === target.host) ? undefined : target.host;
  const base = buildConnector({
    rejectUnauthorized: !insecureTLS,
    timeout: Math.max(1, how.timeoutMs),
    lookup: () => {
      throw new Error('unexpected DNS lookup on a pinned connection');
    },
  } as buildConnector.BuildOptions);
  return (opts, callback) => {
    const tryAt = (i: number, lastErr?: Error): void => {
      const addr: ResolvedAddress | undefined = target.addresses[i];
      if (!addr) {
        callback(lastErr ?? new Error('no address to connect to'), null);
        return;
      }
      try {
        how.onConnect?.({ address: addr.address, family: addr.family, port, host: target.host, tls, insecureTLS });
      } catch (err) {
        callback(err as Error, null);
        return;
      }
      base({ ...opts, hostname: addr.address, servername: servername ?? '' }, (err, socket) => {
        if (err) {
          const code = (err as NodeJS.ErrnoException).code;
          // Next address only when this one could not be reached at all.
          if (code === 'ECONNREFUSED' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'EADDRNOTAVAIL') {
            tryAt(i + 1, err);
            return;
          }
          callback(err, null);
          return;
        }
        callback(null, socket!);
      });
    };
    tryAt(0);
  };
}

/** POST the payload and turn the reply into a result; a failed request rejects (the caller words it). */
async function exchange(client: Client, req: PreparedRequest, signal: AbortSignal, start: number): Promise<ExecutionResult> {
  const { shown, limit } = req;
  const stdinTruncated = req.body.truncated;
  const res = await client.request({
    path: `${req.url.pathname}${req.url.search}`,
    method: 'POST',
    headers: { ...req.headers, 'content-type': 'application/json' },
    body: req.body.text,
    signal,
  });
  const status = res.statusCode;
  // Dropping a body early makes undici emit an abort error on it; nobody else listens.
  res.body.on('error', () => {});
  if (status < 200 || status >= 300) {
    res.body.destroy();
    if (status >= 300 && status < 400) {
      const loc = res.headers.location;
      const where = typeof loc === 'string' ? `; Location: ${loc.slice(0, 200)}` : '';
      return httpFailure(start, `${shown} answered HTTP ${status}: redirects are not followed${where}`, { exitCode: 1, stdinTruncated });
    }
    return httpFailure(start, `${shown} answered HTTP ${status}`, { exitCode: 1, stdinTruncated });
  }

  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of res.body) {
    const buf = chunk as Buffer;
    if (size + buf.length > limit) {
      chunks.push(buf.subarray(0, limit - size));
      size = limit;
      truncated = true;
      res.body.destroy();
      break;
    }
    chunks.push(buf);
    size += buf.length;
  }
  if (truncated) {
    return httpFailure(start, `${shown}: response body exceeds ${limit} bytes; reading stopped and the response is ignored`, {
      exitCode: 0,
      stdoutTruncated: true,
      stdinTruncated,
    });
  }
  return replyResult(Buffer.concat(chunks).toString('utf8'), size, res.headers['content-type'], shown, stdinTruncated, start);
}

/** A 2xx body: empty → nothing to say; one JSON object → the hook's output; anything else is ignored. */
function replyResult(
  text: string,
  size: number,
  type: string | string[] | undefined,
  shown: string,
  stdinTruncated: boolean,
  start: number,
): ExecutionResult {
  if (text.trim() === '') return result({ status: 'completed', exitCode: 0, stdinTruncated }, start);
  if (!parseJsonObject(text)) {
    const kind = typeof type === 'string' ? type.split(';')[0] : 'no content type';
    return httpFailure(start, `${shown}: 2xx response body is not a JSON object (${kind}, ${size} bytes); ignored`, {
      exitCode: 0,
      stdinTruncated,
    });
  }
  return result({ status: 'completed', exitCode: 0, stdout: text, stdinTruncated }, start);
}

/** The engine backend for `type: "http"` hooks. */
export function httpBackend(options: HttpBackendOptions = {}): Backend {
  return (hook: NormalizedHook, payload, ctx) => runHttpHook(hook.handler as HttpHandler, payload, ctx, options);
}
