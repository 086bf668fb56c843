/**
 * The panel's request guard (docs/serve.md, "Security"). In order, for every request:
 *
 * 1. Host: the `Host` header — and the request URL's host, which differs for an absolute-form
 *    request target — must be one of the allowed `host:port` values (the bound address,
 *    `localhost`, and names given with `allowedHosts`). A DNS-rebinding page reaches us under its
 *    own name and is refused here.
 * 2. Cross-site: an `Origin` header must be an allowed origin (`http://<allowed host>`); a
 *    `Sec-Fetch-Site` header must be `same-origin` or `none`. CORS preflights are refused, and
 *    no response carries CORS headers.
 * 3. Token: every request needs the access token, as `Authorization: Bearer <token>` or as the
 *    HttpOnly, SameSite=Strict cookie. A page URL with `?token=<token>` sets the cookie and
 *    redirects to the same URL without it (the first visit).
 * 4. State-changing requests (anything but GET/HEAD) need the token in the `Authorization`
 *    header — the ambient cookie is not enough — a JSON body, and a same-origin check: an allowed
 *    `Origin`, or no `Origin` and no `Sec-Fetch-Site` at all (a non-browser client).
 *
 * Responses carry a strict Content-Security-Policy (scripts and styles from this server only),
 * `X-Frame-Options: DENY`, `Referrer-Policy: no-referrer` and `Cache-Control: no-store`.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';

const TOKEN_COOKIE = 'agent_hooks_token';

/** 32 random bytes, base64url (43 characters). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Constant-time comparison (both sides hashed first, so lengths never leak). */
function tokensEqual(a: string | undefined, b: string): boolean {
  if (typeof a !== 'string' || a === '') return false;
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/** `host:port` as it appears in a Host header (IPv6 in brackets), lower-cased. */
export function hostPort(host: string, port: number): string {
  const h = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `${h}:${port}`.toLowerCase();
}

/** The Host values a server bound to `address:port` answers to. */
export function defaultAllowedHosts(address: string, port: number): string[] {
  const out = new Set<string>([hostPort(address, port), hostPort('localhost', port)]);
  if (address === '127.0.0.1' || address === '::1') {
    out.add(hostPort('127.0.0.1', port));
    if (address === '::1') out.add(hostPort('::1', port));
  }
  return [...out];
}

export interface Guard {
  token: string;
  /** Allowed `host:port` values (lower case). */
  allowedHosts: Set<string>;
}

function refuse(c: Context, status: 401 | 403 | 415, error: string): Response {
  c.header('Cache-Control', 'no-store');
  return c.json({ error }, status);
}

const SAFE = new Set(['GET', 'HEAD']);

function bearer(c: Context): string | undefined {
  const h = c.req.header('authorization');
  const m = h ? /^Bearer\s+(\S+)\s*$/i.exec(h) : null;
  return m ? m[1] : undefined;
}

const isPage = (p: string) => p === '/' || p === '/sessions' || p === '/audit';

export function guardMiddleware(guard: Guard): MiddlewareHandler {
  return async (c, next) => {
    // 1. Host (DNS rebinding).
    const host = c.req.header('host')?.toLowerCase();
    let urlHost: string;
    try {
      urlHost = new URL(c.req.url).host.toLowerCase();
    } catch {
      return refuse(c, 403, 'bad request target');
    }
    // URL normalises away a default port; the Host header is compared exactly, the URL host loosely.
    const urlOk = guard.allowedHosts.has(urlHost) || [...guard.allowedHosts].some((h) => h === `${urlHost}:80`);
    if (!host || !guard.allowedHosts.has(host) || !urlOk) return refuse(c, 403, `host not allowed: ${host ?? '(none)'}`);

    // 2. Cross-site requests.
    const origin = c.req.header('origin');
    if (origin !== undefined) {
      let ok = false;
      try {
        const u = new URL(origin);
        ok = u.protocol === 'http:' && u.origin === origin && guard.allowedHosts.has(u.host.toLowerCase());
      } catch {
        ok = false;
      }
      if (!ok) return refuse(c, 403, `cross-origin request refused (Origin ${origin})`);
    }
    const site = c.req.header('sec-fetch-site');
    if (site !== undefined && site !== 'same-origin' && site !== 'none')
      return refuse(c, 403, `cross-site request refused (Sec-Fetch-Site ${site})`);
    if (c.req.method === 'OPTIONS') return refuse(c, 403, 'CORS is not offered');

    // 3. Token.
    const path = c.req.path;
    const queryToken = c.req.query('token');
    if (queryToken !== undefined && c.req.method === 'GET' && isPage(path)) {
      if (!tokensEqual(queryToken, guard.token)) return refuse(c, 401, 'wrong token: open the URL that `agent-hooks serve` printed');
      setCookie(c, TOKEN_COOKIE, guard.token, { httpOnly: true, sameSite: 'Strict', path: '/' });
      c.header('Cache-Control', 'no-store');
      return c.redirect(path, 303);
    }
    const headerToken = bearer(c);
    const authed = tokensEqual(headerToken, guard.token) || tokensEqual(getCookie(c, TOKEN_COOKIE), guard.token);
    if (!authed) {
      if (c.req.method === 'GET' && isPage(path)) {
        c.header('Cache-Control', 'no-store');
        return c.html(
          '<!doctype html><meta charset="utf-8"><title>agent-hooks serve</title><p>This panel needs its access token. Open the URL that <code>agent-hooks serve</code> printed (it ends in <code>?token=…</code>).</p>',
          401,
        );
      }
      return refuse(c, 401, 'missing or wrong access token');
    }

    // 4. State-changing requests.
    if (!SAFE.has(c.req.method)) {
      if (!tokensEqual(headerToken, guard.token))
        return refuse(c, 403, 'state-changing requests need the token in the Authorization header');
      if (origin === undefined && site !== undefined) return refuse(c, 403, 'state-changing requests need a same-origin Origin header');
      const type = c.req.header('content-type') ?? '';
      if (!/^application\/json\s*(;|$)/i.test(type)) return refuse(c, 415, 'state-changing requests must send application/json');
    }
    await next();
  };
}

/** Security headers for every response. */
export function headersMiddleware(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    c.header(
      'Content-Security-Policy',
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    c.header('X-Frame-Options', 'DENY');
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
    c.header('Cross-Origin-Opener-Policy', 'same-origin');
    c.header('Cross-Origin-Resource-Policy', 'same-origin');
    if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
  };
}
