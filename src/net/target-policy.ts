/**
 * Target policy for HTTP hooks: which URLs and which resolved addresses a hook may reach.
 *
 * Order of checks (each refusal happens before any socket is opened):
 *   1. WHATWG URL parsing (normalizes 2130706433, 0177.0.0.1, 0x7f.1, 127.1 to 127.0.0.1;
 *      rejects zone ids such as [fe80::1%25eth0]);
 *   2. scheme http/https only, no userinfo (`https://good.com@127.0.0.1`);
 *   3. managed `allowedHttpHookUrls` (when defined at any layer);
 *   4. unless the hook's `allowedHosts` names the host: https only, no `localhost` names;
 *   5. the host is resolved once (IP literals are not resolved) and EVERY address is checked;
 *      unless `allowedHosts` names the host, an address outside public unicast refuses the
 *      whole request.
 * The caller connects to one of the returned addresses (pinning): no second lookup.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has. Injectable for tests. */
export type Resolver = (hostname: string) => Promise<ReadonlyArray<{ address: string; family: number }>>;

export const defaultResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

export type AddressCheck = { ok: true } | { ok: false; reason: string };

/** ipaddr.js range names → what we tell the user. Everything but `unicast` is refused. */
const RANGE_LABELS: Record<string, string> = {
  unspecified: 'unspecified address',
  broadcast: 'broadcast address',
  multicast: 'multicast range',
  linkLocal: 'link-local range (includes the cloud metadata address 169.254.169.254)',
  loopback: 'loopback range',
  carrierGradeNat: 'carrier-grade NAT range 100.64.0.0/10',
  private: 'private range (RFC 1918)',
  reserved: 'reserved/documentation range',
  as112: 'AS112 range',
  amt: 'AMT relay range',
  uniqueLocal: 'unique local range fc00::/7',
  deprecatedSiteLocal: 'site-local range fec0::/10',
  discard: 'discard-only range 100::/64',
  benchmarking: 'benchmarking range',
  as112v6: 'AS112 range',
  deprecatedOrchid: 'ORCHID range',
  orchid2: 'ORCHIDv2 range',
  droneRemoteIdProtocolEntityTags: 'DRIP range',
  segmentRouting: 'segment routing range',
  rfc6145: 'IPv4-translated range ::ffff:0:0:0/96',
};

function label(range: string): string {
  return RANGE_LABELS[range] ?? `${range} range`;
}

function v4FromParts(hi: number, lo: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}

function checkV4(v4: ipaddr.IPv4): AddressCheck {
  const range = v4.range();
  return range === 'unicast' ? { ok: true } : { ok: false, reason: `${v4.toString()} is in the ${label(range)}` };
}

/** An IPv6 address that embeds an IPv4 address is judged by the embedded address. */
function checkEmbedded(what: string, address: string, embedded: ipaddr.IPv4[]): AddressCheck {
  for (const v4 of embedded) {
    const r = checkV4(v4);
    if (!r.ok) return { ok: false, reason: `${address} is ${what} embedding ${r.reason}` };
  }
  return { ok: true };
}

/**
 * Is `address` (a canonical IP string, as a resolver returns it) a public unicast address?
 * Refused: loopback, RFC 1918, link-local, CGNAT, ULA, unspecified, multicast, broadcast,
 * reserved/documentation ranges, IPv4-compatible ::/96, and IPv4-mapped/NAT64/6to4/Teredo
 * addresses whose embedded IPv4 address is any of those.
 */
export function checkAddress(address: string): AddressCheck {
  if (address.includes('%')) return { ok: false, reason: `${address} carries an IPv6 zone id` };
  const family = isIP(address);
  if (family === 0) return { ok: false, reason: `${JSON.stringify(address)} is not an IP address` };
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return checkV4(parsed as ipaddr.IPv4);

  const v6 = parsed as ipaddr.IPv6;
  const p = v6.parts as number[];
  if (v6.isIPv4MappedAddress()) return checkEmbedded('IPv4-mapped', address, [v6.toIPv4Address()]);
  // ::/96 holds ::, ::1 and the deprecated IPv4-compatible form (::127.0.0.1), which
  // ipaddr.js calls plain unicast; nothing legitimate lives there.
  if (p.slice(0, 6).every((x) => x === 0)) {
    return { ok: false, reason: `${address} is in ::/96 (unspecified, loopback or IPv4-compatible)` };
  }
  const range = v6.range();
  switch (range) {
    case 'unicast':
      return { ok: true };
    case 'rfc6052':
      // NAT64 well-known prefix 64:ff9b::/96 (IPv6-only networks use it for every IPv4 host);
      // the local-use prefix 64:ff9b:1::/48 is a private translation and refused outright.
      if (p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0) return checkEmbedded('NAT64', address, [v4FromParts(p[6]!, p[7]!)]);
      return { ok: false, reason: `${address} is in the local-use NAT64 range 64:ff9b:1::/48` };
    case '6to4':
      return checkEmbedded('6to4', address, [v4FromParts(p[1]!, p[2]!)]);
    case 'teredo':
      // Teredo: server IPv4 in bits 32..63, client IPv4 (bit-inverted) in bits 96..127.
      return checkEmbedded('Teredo', address, [v4FromParts(p[2]!, p[3]!), v4FromParts(~p[6]! & 0xffff, ~p[7]! & 0xffff)]);
    default:
      return { ok: false, reason: `${address} is in the ${label(range)}` };
  }
}

/** Lowercase, no brackets, no trailing dot: the form host names are compared in. */
export function normalizeHost(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.endsWith('.')) h = h.slice(0, -1);
  if (isIP(h) === 6) {
    try {
      h = ipaddr.parse(h).toString();
    } catch {
      // leave as written
    }
  }
  return h;
}

/** Does the hook's `allowedHosts` name this host (exact, case-insensitive; IPv6 in canonical form)? */
function hostIsAllowed(host: string, allowedHosts: readonly string[] | undefined): boolean {
  if (!allowedHosts || allowedHosts.length === 0) return false;
  const h = normalizeHost(host);
  return allowedHosts.some((a) => normalizeHost(a) === h);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * `allowedHttpHookUrls` pattern → RegExp over the whole normalized URL. `*` is the only
 * wildcard. Within the scheme and authority (up to the first `/` after `://`) a `*` matches
 * host characters only, so `https://*.example.com/*` cannot be satisfied by
 * `https://evil.test/?.example.com/`; in the path, query and fragment `*` matches anything.
 * The scheme and authority are compared case-insensitively.
 */
export function compileUrlPattern(pattern: string): RegExp {
  const schemeEnd = pattern.indexOf('://');
  const authorityEnd = schemeEnd >= 0 ? pattern.indexOf('/', schemeEnd + 3) : -1;
  const head = literalOrigin(authorityEnd >= 0 ? pattern.slice(0, authorityEnd) : pattern);
  const tail = authorityEnd >= 0 ? pattern.slice(authorityEnd) : '';
  const headRe = head.toLowerCase().split('*').map(escapeRegExp).join('[^/?#@\\\\]*');
  const tailRe = tail.split('*').map(escapeRegExp).join('.*');
  return new RegExp(`^${headRe}${tailRe}$`);
}

/**
 * A pattern's scheme and authority without a wildcard, written as a URL's own (`href`) writes
 * them: `https://h:443` is `https://h`, `https://Bücher.example` is `https://xn--bcher-kva.example`.
 * Compared as typed, such patterns never matched the URL they name. With a `*`, or where it does
 * not parse, the text stays as it is.
 */
function literalOrigin(head: string): string {
  if (head.includes('*') || !head.includes('://')) return head;
  try {
    const u = new URL(`${head}/`);
    const auth = u.username || u.password ? `${u.username}${u.password ? `:${u.password}` : ''}@` : '';
    return u.host === '' ? head : `${u.protocol}//${auth}${u.host}`;
  } catch {
    return head;
  }
}

const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };

/**
 * Whether `url` matches one of the patterns. A pattern without a path matches the bare origin. A
 * URL on its scheme's default port, which its `href` leaves out, is also tried with the port
 * written, so a wildcard origin that names it (`https://*.example.com:443/*`, `http://localhost:*`)
 * matches: the same origin either way, so no other target can match.
 */
export function urlMatchesAllowlist(url: URL, patterns: readonly string[]): boolean {
  const candidates = [url.href];
  const port = DEFAULT_PORTS[url.protocol];
  if (url.port === '' && port !== undefined && url.host !== '') {
    // The host starts after `//` and any userinfo (an `@` inside it is percent-encoded in `href`).
    const start = url.protocol.length + 2;
    const at = (url.username || url.password ? url.href.indexOf('@', start) + 1 : start) + url.host.length;
    candidates.push(`${url.href.slice(0, at)}:${port}${url.href.slice(at)}`);
  }
  if (url.pathname === '/' && !url.search && !url.hash) candidates.push(...candidates.map((c) => c.slice(0, -1)));
  return patterns.some((p) => {
    const re = compileUrlPattern(p);
    return candidates.some((c) => re.test(c));
  });
}

/** The URL as shown in messages: no userinfo, no query or fragment (they may carry tokens). */
export function describeUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

export interface TargetPolicyInput {
  url: string;
  /** The hook's opt-out: hosts for which https and the address ranges are not checked. */
  allowedHosts?: readonly string[];
  /** Managed allowlist; undefined = no restriction, [] = no HTTP hook may run. */
  allowedHttpHookUrls?: readonly string[];
  resolve?: Resolver;
}

export type TargetDecision =
  | {
      ok: true;
      url: URL;
      /** Host name as compared (lowercase, no brackets). */
      host: string;
      /** Addresses to connect to, every one checked; connect only to these. */
      addresses: ResolvedAddress[];
      /** allowedHosts named the host: https and range checks were lifted. */
      optedOut: boolean;
    }
  | { ok: false; reason: string };

/** The checks that need no DNS: URL shape, scheme, userinfo, allowlists, IP literals. */
export function checkUrlStatically(
  raw: string,
  opts: { allowedHosts?: readonly string[]; allowedHttpHookUrls?: readonly string[] } = {},
): { ok: true; url: URL; host: string; optedOut: boolean; literal?: ResolvedAddress } | { ok: false; reason: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'URL is not valid (an IPv6 zone id such as %25eth0 is never accepted)' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, reason: `scheme ${url.protocol} is not supported (https only)` };
  }
  if (url.username || url.password) {
    return { ok: false, reason: `URL ${describeUrl(url)} carries userinfo (user@host); send credentials in headers instead` };
  }
  if (opts.allowedHttpHookUrls && !urlMatchesAllowlist(url, opts.allowedHttpHookUrls)) {
    return {
      ok: false,
      reason:
        opts.allowedHttpHookUrls.length === 0
          ? 'allowedHttpHookUrls is empty: no HTTP hook may run'
          : `URL ${describeUrl(url)} does not match allowedHttpHookUrls`,
    };
  }
  const host = normalizeHost(url.hostname);
  const optedOut = hostIsAllowed(host, opts.allowedHosts);
  if (!optedOut && url.protocol !== 'https:') {
    return { ok: false, reason: `URL ${describeUrl(url)} uses http:; only https is allowed unless the hook's allowedHosts names ${host}` };
  }
  if (!optedOut && (host === 'localhost' || host.endsWith('.localhost'))) {
    return { ok: false, reason: `host ${host} is a loopback name; refused unless the hook's allowedHosts names it` };
  }
  const family = isIP(host);
  if (family !== 0) {
    const literal: ResolvedAddress = { address: host, family: family as 4 | 6 };
    if (!optedOut) {
      const r = checkAddress(host);
      if (!r.ok) return { ok: false, reason: `refused target ${describeUrl(url)}: ${r.reason}` };
    }
    return { ok: true, url, host, optedOut, literal };
  }
  return { ok: true, url, host, optedOut };
}

/** Full policy: static checks, one resolution, every address checked. Never throws. */
export async function checkHttpTarget(input: TargetPolicyInput): Promise<TargetDecision> {
  const s = checkUrlStatically(input.url, input);
  if (!s.ok) return s;
  if (s.literal) return { ok: true, url: s.url, host: s.host, addresses: [s.literal], optedOut: s.optedOut };

  let answers: ReadonlyArray<{ address: string; family: number }>;
  try {
    answers = await (input.resolve ?? defaultResolver)(s.host);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException)?.code;
    return { ok: false, reason: `cannot resolve ${s.host}: ${code ?? (err as Error)?.message ?? String(err)}` };
  }
  if (!Array.isArray(answers) || answers.length === 0) return { ok: false, reason: `${s.host} resolved to no address` };

  const addresses: ResolvedAddress[] = [];
  for (const a of answers) {
    const address = typeof a?.address === 'string' ? a.address : String(a?.address);
    // Even an opted-out host must resolve to real IP addresses: we connect to exactly these.
    const family = address.includes('%') ? 0 : isIP(address);
    if (family === 0) return { ok: false, reason: `${s.host} resolved to ${JSON.stringify(address)}, which is not a plain IP address` };
    if (!s.optedOut) {
      const r = checkAddress(address);
      if (!r.ok) return { ok: false, reason: `refused target ${describeUrl(s.url)}: ${s.host} resolves to ${r.reason}` };
    }
    addresses.push({ address, family: family as 4 | 6 });
  }
  return { ok: true, url: s.url, host: s.host, addresses, optedOut: s.optedOut };
}
