/**
 * HTTP hook target policy. Every refused URL must be refused before any socket is opened:
 * the resolver is fake (nothing is looked up) and the connect hook fails the test if called.
 * Accepted public targets reach the connect hook with the checked address and stop there —
 * the hook throws, so no traffic ever leaves the machine.
 */
import { describe, expect, it } from 'vitest';
import { runHttpHook, type ConnectTarget } from '../../src/backends/http.js';
import { checkAddress, checkHttpTarget, compileUrlPattern, urlMatchesAllowlist, type Resolver } from '../../src/net/target-policy.js';
import type { HttpHandler } from '../../src/types.js';

/** The fake DNS: names under .test resolve to what the table says; anything else is an error. */
const DNS: Record<string, string[]> = {
  'public.test': ['93.184.216.34'],
  'public6.test': ['2606:4700::1111'],
  'internal.test': ['10.0.0.5'],
  'metadata.test': ['169.254.169.254'],
  'mixed.test': ['93.184.216.34', '10.0.0.1'],
  'mixed-late.test': ['93.184.216.34', '8.8.8.8', '127.0.0.1'],
  'mixed6.test': ['2606:4700::1111', 'fd00::1'],
  'mapped.test': ['::ffff:127.0.0.1'],
  'compat.test': ['::7f00:1'],
  'weird.test': ['2130706433'],
  'zone.test': ['fe80::1%eth0'],
  'empty.test': [],
  'cgnat.test': ['100.100.100.100'],
  'loop6.test': ['::1'],
  'nat64-meta.test': ['64:ff9b::a9fe:a9fe'],
  'sixtofour.test': ['2002:a00:1::1'],
};

function fakeResolver(calls: string[] = []): Resolver {
  return async (host) => {
    calls.push(host);
    const answer = DNS[host];
    if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

interface Row {
  url: string;
  why: string;
  allowedHosts?: string[];
  allowedHttpHookUrls?: string[];
  /** Expected fragment of the refusal message. */
  expect?: RegExp;
}

const REFUSED: Row[] = [
  // IPv4 ranges, as literals
  { url: 'https://127.0.0.1/', why: 'loopback', expect: /loopback/ },
  { url: 'https://127.255.255.254/', why: 'loopback top', expect: /loopback/ },
  { url: 'https://10.0.0.1/', why: 'RFC 1918 10/8', expect: /private/ },
  { url: 'https://10.255.255.255/', why: 'RFC 1918 10/8 top', expect: /private/ },
  { url: 'https://172.16.0.1/', why: 'RFC 1918 172.16/12', expect: /private/ },
  { url: 'https://172.31.255.255/', why: 'RFC 1918 172.16/12 top', expect: /private/ },
  { url: 'https://192.168.1.1/', why: 'RFC 1918 192.168/16', expect: /private/ },
  { url: 'https://169.254.169.254/latest/meta-data/', why: 'cloud metadata', expect: /link-local/ },
  { url: 'https://169.254.0.1/', why: 'link-local', expect: /link-local/ },
  { url: 'https://100.64.0.1/', why: 'CGNAT', expect: /carrier-grade NAT/ },
  { url: 'https://100.127.255.254/', why: 'CGNAT top', expect: /carrier-grade NAT/ },
  { url: 'https://0.0.0.0/', why: 'unspecified', expect: /unspecified/ },
  { url: 'https://0/', why: 'unspecified, one-part', expect: /unspecified/ },
  { url: 'https://0.1.2.3/', why: '0/8', expect: /unspecified/ },
  { url: 'https://255.255.255.255/', why: 'broadcast', expect: /broadcast/ },
  { url: 'https://224.0.0.1/', why: 'multicast', expect: /multicast/ },
  { url: 'https://239.255.255.250/', why: 'multicast SSDP', expect: /multicast/ },
  { url: 'https://240.0.0.1/', why: 'reserved class E', expect: /reserved/ },
  { url: 'https://192.0.2.1/', why: 'TEST-NET-1', expect: /reserved/ },
  { url: 'https://198.51.100.7/', why: 'TEST-NET-2', expect: /reserved/ },
  { url: 'https://203.0.113.9/', why: 'TEST-NET-3', expect: /reserved/ },
  { url: 'https://198.18.0.1/', why: 'benchmarking', expect: /reserved/ },
  { url: 'https://192.0.0.8/', why: 'IETF protocol assignments', expect: /reserved/ },
  // odd IPv4 spellings: WHATWG parsing normalizes them, the check sees 127.0.0.1 etc.
  { url: 'https://2130706433/', why: 'decimal', expect: /127\.0\.0\.1 is in the loopback/ },
  { url: 'https://0177.0.0.1/', why: 'octal', expect: /127\.0\.0\.1 is in the loopback/ },
  { url: 'https://0x7f.1/', why: 'hex, short', expect: /127\.0\.0\.1 is in the loopback/ },
  { url: 'https://127.1/', why: 'short', expect: /127\.0\.0\.1 is in the loopback/ },
  { url: 'https://0x7f000001/', why: 'hex, one part', expect: /127\.0\.0\.1/ },
  { url: 'https://017700000001/', why: 'octal, one part', expect: /127\.0\.0\.1/ },
  { url: 'https://0300.0250.0.1/', why: 'octal 192.168', expect: /192\.168\.0\.1 is in the private/ },
  { url: 'https://3232235777/', why: 'decimal 192.168.1.1', expect: /192\.168\.1\.1/ },
  { url: 'https://0xa9.0xfe.0xa9.0xfe/', why: 'hex metadata', expect: /169\.254\.169\.254/ },
  { url: 'https://%31%32%37.0.0.1/', why: 'percent-encoded', expect: /127\.0\.0\.1/ },
  { url: 'https://\uff11\uff12\uff17.0.0.1/', why: 'full-width digits', expect: /127\.0\.0\.1/ },
  { url: 'https://127.0.0.1./', why: 'trailing dot', expect: /127\.0\.0\.1/ },
  { url: 'https://10.1/', why: 'short private', expect: /10\.0\.0\.1 is in the private/ },
  // IPv6
  { url: 'https://[::1]/', why: 'IPv6 loopback', expect: /::\/96/ },
  { url: 'https://[::]/', why: 'IPv6 unspecified', expect: /::\/96/ },
  { url: 'https://[0:0:0:0:0:0:0:1]/', why: 'IPv6 loopback, long', expect: /::\/96/ },
  { url: 'https://[::ffff:127.0.0.1]/', why: 'IPv4-mapped loopback', expect: /IPv4-mapped embedding 127\.0\.0\.1/ },
  { url: 'https://[::ffff:7f00:1]/', why: 'IPv4-mapped loopback, hex', expect: /IPv4-mapped/ },
  { url: 'https://[::ffff:169.254.169.254]/', why: 'IPv4-mapped metadata', expect: /link-local/ },
  { url: 'https://[::ffff:10.0.0.1]/', why: 'IPv4-mapped private', expect: /private/ },
  { url: 'https://[::127.0.0.1]/', why: 'IPv4-compatible', expect: /IPv4-compatible/ },
  { url: 'https://[fc00::1]/', why: 'ULA fc00', expect: /unique local/ },
  { url: 'https://[fd12:3456::1]/', why: 'ULA fd', expect: /unique local/ },
  { url: 'https://[fe80::1]/', why: 'link-local', expect: /link-local/ },
  { url: 'https://[febf:ffff::1]/', why: 'link-local top of fe80::/10', expect: /link-local/ },
  { url: 'https://[fec0::1]/', why: 'site-local', expect: /site-local/ },
  { url: 'https://[ff02::1]/', why: 'multicast', expect: /multicast/ },
  { url: 'https://[64:ff9b::127.0.0.1]/', why: 'NAT64 of loopback', expect: /NAT64 embedding 127\.0\.0\.1/ },
  { url: 'https://[64:ff9b::a9fe:a9fe]/', why: 'NAT64 of metadata', expect: /NAT64 embedding 169\.254\.169\.254/ },
  { url: 'https://[64:ff9b:1::1]/', why: 'local-use NAT64', expect: /local-use NAT64/ },
  { url: 'https://[2002:7f00:1::]/', why: '6to4 of loopback', expect: /6to4 embedding 127\.0\.0\.1/ },
  { url: 'https://[2002:c0a8:101::1]/', why: '6to4 of 192.168.1.1', expect: /6to4 embedding 192\.168\.1\.1/ },
  { url: 'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', why: 'Teredo, client 127.0.0.1', expect: /Teredo embedding 127\.0\.0\.1/ },
  { url: 'https://[2001:db8::1]/', why: 'documentation', expect: /reserved/ },
  { url: 'https://[100::1]/', why: 'discard-only', expect: /discard/ },
  { url: 'https://[::ffff:0:7f00:1]/', why: 'IPv4-translated', expect: /IPv4-translated/ },
  // zone ids and malformed hosts
  { url: 'https://[fe80::1%25eth0]/', why: 'zone id, encoded', expect: /zone id/ },
  { url: 'https://[fe80::1%eth0]/', why: 'zone id, raw', expect: /not valid/ },
  { url: 'https://good.com%40127.0.0.1/', why: 'encoded @ in host', expect: /not valid/ },
  // userinfo tricks
  { url: 'https://good.com@127.0.0.1/', why: 'userinfo trick', expect: /userinfo/ },
  { url: 'https://good.com:443@10.0.0.1/', why: 'userinfo with port-like password', expect: /userinfo/ },
  { url: 'https://user:pass@public.test/', why: 'any userinfo', expect: /userinfo/ },
  { url: 'https://good.com@127.0.0.1/', why: 'userinfo is not lifted by allowedHosts', allowedHosts: ['127.0.0.1'], expect: /userinfo/ },
  // schemes
  { url: 'http://public.test/', why: 'plain http', expect: /only https/ },
  { url: 'http://93.184.216.34/', why: 'plain http to a public literal', expect: /only https/ },
  { url: 'ftp://public.test/', why: 'ftp', expect: /not supported/ },
  { url: 'file:///etc/passwd', why: 'file', expect: /not supported/ },
  // loopback names
  { url: 'https://localhost/', why: 'localhost', expect: /loopback name/ },
  { url: 'https://LOCALHOST./', why: 'localhost, upper case, trailing dot', expect: /loopback name/ },
  { url: 'https://api.localhost/', why: '*.localhost', expect: /loopback name/ },
  // names that resolve to refused addresses
  { url: 'https://internal.test/', why: 'resolves to 10.0.0.5', expect: /internal\.test resolves to 10\.0\.0\.5/ },
  { url: 'https://metadata.test/', why: 'resolves to metadata', expect: /169\.254\.169\.254/ },
  { url: 'https://mixed.test/', why: 'two addresses, one private', expect: /10\.0\.0\.1/ },
  { url: 'https://mixed-late.test/', why: 'three addresses, the last loopback', expect: /127\.0\.0\.1/ },
  { url: 'https://mixed6.test/', why: 'IPv6 pair, one ULA', expect: /unique local/ },
  { url: 'https://mapped.test/', why: 'resolves to IPv4-mapped loopback', expect: /IPv4-mapped/ },
  { url: 'https://compat.test/', why: 'resolves to IPv4-compatible', expect: /IPv4-compatible/ },
  { url: 'https://weird.test/', why: 'resolver answer is not canonical', expect: /not a plain IP/ },
  { url: 'https://zone.test/', why: 'resolver answer with zone id', expect: /not a plain IP/ },
  { url: 'https://empty.test/', why: 'no address', expect: /no address/ },
  { url: 'https://nxdomain.test/', why: 'lookup fails', expect: /ENOTFOUND/ },
  { url: 'https://cgnat.test/', why: 'resolves to CGNAT', expect: /carrier-grade/ },
  { url: 'https://loop6.test/', why: 'resolves to ::1', expect: /::\/96/ },
  { url: 'https://nat64-meta.test/', why: 'resolves to NAT64 metadata', expect: /NAT64/ },
  { url: 'https://sixtofour.test/', why: 'resolves to 6to4 of 10.0.0.1', expect: /6to4 embedding 10\.0\.0\.1/ },
  // allowedHosts names another host: nothing is lifted
  { url: 'https://127.0.0.1/', why: 'allowedHosts names localhost, not 127.0.0.1', allowedHosts: ['localhost'], expect: /loopback/ },
  { url: 'http://internal.test/', why: 'allowedHosts names a different host', allowedHosts: ['public.test'], expect: /only https/ },
  // managed allowlist
  {
    url: 'https://public.test/',
    why: 'not in allowedHttpHookUrls',
    allowedHttpHookUrls: ['https://hooks.example.com/*'],
    expect: /does not match allowedHttpHookUrls/,
  },
  { url: 'https://public.test/', why: 'allowedHttpHookUrls empty', allowedHttpHookUrls: [], expect: /no HTTP hook may run/ },
  {
    url: 'https://evil.test/?.example.com/',
    why: 'wildcard cannot cross into the path',
    allowedHttpHookUrls: ['https://*.example.com/*'],
    expect: /allowedHttpHookUrls/,
  },
  {
    url: 'https://127.0.0.1/',
    why: 'allowedHosts does not lift the managed allowlist',
    allowedHosts: ['127.0.0.1'],
    allowedHttpHookUrls: ['https://hooks.example.com/*'],
    expect: /allowedHttpHookUrls/,
  },
];

const ctx = { timeoutMs: 2000, sessionEnv: {}, stdinLimitBytes: 100 * 1024 };

describe('refused targets: no socket is ever opened', () => {
  it('the table has at least 60 forms', () => {
    expect(REFUSED.length).toBeGreaterThanOrEqual(60);
  });

  it.each(REFUSED)('$url ($why)', async (row) => {
    const connects: ConnectTarget[] = [];
    const handler: HttpHandler = { type: 'http', url: row.url, allowedHosts: row.allowedHosts };
    const result = await runHttpHook(handler, { hook_event_name: 'PreToolUse' }, ctx, {
      resolve: fakeResolver(),
      allowedHttpHookUrls: row.allowedHttpHookUrls,
      onConnect: (t) => {
        connects.push(t);
        throw new Error('connection attempted');
      },
    });
    expect(connects).toEqual([]);
    expect(result.status).toBe('error');
    expect(result.error).toMatch(/^HTTP hook: /);
    if (row.expect) expect(result.error).toMatch(row.expect);
    // The policy alone says no, too.
    const decision = await checkHttpTarget({
      url: row.url,
      allowedHosts: row.allowedHosts,
      allowedHttpHookUrls: row.allowedHttpHookUrls,
      resolve: fakeResolver(),
    });
    expect(decision.ok).toBe(false);
  });
});

describe('accepted public targets: pinned to the checked address', () => {
  const ACCEPTED: Array<{ url: string; address: string; host: string }> = [
    { url: 'https://public.test/hook', address: '93.184.216.34', host: 'public.test' },
    { url: 'https://public6.test/hook', address: '2606:4700::1111', host: 'public6.test' },
    { url: 'https://93.184.216.34/', address: '93.184.216.34', host: '93.184.216.34' },
    { url: 'https://[2606:4700::1111]/', address: '2606:4700::1111', host: '2606:4700::1111' },
    { url: 'https://[64:ff9b::5db8:d822]/', address: '64:ff9b::5db8:d822', host: '64:ff9b::5db8:d822' },
    { url: 'https://[::ffff:93.184.216.34]/', address: '::ffff:5db8:d822', host: '::ffff:5db8:d822' },
  ];
  it.each(ACCEPTED)('$url connects to $address only', async ({ url, address, host }) => {
    const calls: string[] = [];
    const connects: ConnectTarget[] = [];
    const result = await runHttpHook({ type: 'http', url }, {}, ctx, {
      resolve: fakeResolver(calls),
      onConnect: (t) => {
        connects.push(t);
        throw new Error('stopped by the test before any socket');
      },
    });
    expect(connects).toHaveLength(1);
    expect(connects[0]).toMatchObject({ address, host, port: 443, tls: true, insecureTLS: false });
    expect(calls.length).toBeLessThanOrEqual(1);
    expect(result.status).toBe('error');
    expect(result.error).toMatch(/stopped by the test/);
  });

  it('resolves once: a rebinding resolver that changes its answer is never asked twice', async () => {
    let n = 0;
    const rebinding: Resolver = async () => {
      n++;
      return [{ address: n === 1 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
    };
    const connects: ConnectTarget[] = [];
    await runHttpHook({ type: 'http', url: 'https://rebind.test/' }, {}, ctx, {
      resolve: rebinding,
      onConnect: (t) => {
        connects.push(t);
        throw new Error('stop');
      },
    });
    expect(n).toBe(1);
    expect(connects.map((c) => c.address)).toEqual(['93.184.216.34']);
  });

  it('an allowedHosts hit lifts https and the range checks, and still pins', async () => {
    const d = await checkHttpTarget({ url: 'http://internal.test:8080/x', allowedHosts: ['INTERNAL.test.'], resolve: fakeResolver() });
    expect(d).toMatchObject({ ok: true, optedOut: true, host: 'internal.test', addresses: [{ address: '10.0.0.5', family: 4 }] });
    const v6 = await checkHttpTarget({ url: 'http://[::1]:9/', allowedHosts: ['[0:0::1]'] });
    expect(v6).toMatchObject({ ok: true, optedOut: true, addresses: [{ address: '::1', family: 6 }] });
  });
});

describe('checkAddress', () => {
  it('allows public unicast only', () => {
    for (const a of ['93.184.216.34', '8.8.8.8', '1.1.1.1', '2606:4700::1111', '2a00:1450:4001::200e'])
      expect(checkAddress(a)).toEqual({ ok: true });
    for (const a of ['127.0.0.1', '::1', '10.1.2.3', 'fe80::1', '::ffff:10.0.0.1', 'not-an-ip', '', 'fe80::1%lo'])
      expect(checkAddress(a).ok).toBe(false);
  });
  it('judges 6to4 and Teredo by their embedded IPv4 addresses', () => {
    expect(checkAddress('2002:5db8:d822::1')).toEqual({ ok: true }); // 6to4 of 93.184.216.34
    // Teredo: server 65.54.227.120, client ~(a247:2ddd) = 93.184.210.34 — both public.
    expect(checkAddress('2001:0:4136:e378:8000:63bf:a247:2ddd')).toEqual({ ok: true });
    // Teredo with a private server address.
    expect(checkAddress('2001:0:a00:1:8000:63bf:a247:2ddd').ok).toBe(false);
  });
});

describe('allowedHttpHookUrls patterns', () => {
  const u = (s: string) => new URL(s);
  it('`*` matches any path, whole URL anchored', () => {
    expect(urlMatchesAllowlist(u('https://hooks.example.com/a/b?c=1'), ['https://hooks.example.com/*'])).toBe(true);
    expect(urlMatchesAllowlist(u('https://hooks.example.com.evil.test/'), ['https://hooks.example.com/*'])).toBe(false);
    expect(urlMatchesAllowlist(u('http://hooks.example.com/x'), ['https://hooks.example.com/*'])).toBe(false);
  });
  it('host wildcards stay inside the host', () => {
    expect(urlMatchesAllowlist(u('https://a.example.com/x'), ['https://*.example.com/*'])).toBe(true);
    expect(urlMatchesAllowlist(u('https://evil.test/?.example.com/'), ['https://*.example.com/*'])).toBe(false);
    expect(compileUrlPattern('https://*.example.com/*').test('https://a@b.example.com/')).toBe(false);
  });
  it('reads a pattern without a wildcard in its origin as a URL writes it: default port, IDN', () => {
    expect(urlMatchesAllowlist(u('https://hooks.example.com/h'), ['https://hooks.example.com:443/*'])).toBe(true);
    expect(urlMatchesAllowlist(u('http://hooks.example.com/h'), ['http://hooks.example.com:80/*'])).toBe(true);
    expect(urlMatchesAllowlist(u('https://xn--bcher-kva.example/h'), ['https://Bücher.example/*'])).toBe(true);
    expect(urlMatchesAllowlist(u('https://hooks.example.com:8443/h'), ['https://hooks.example.com:443/*'])).toBe(false);
    expect(urlMatchesAllowlist(u('https://evil.example/h'), ['https://Bücher.example/*'])).toBe(false);
  });
  it('a wildcard origin stays as written, and a URL on the default port matches it with the port written', () => {
    expect(urlMatchesAllowlist(u('https://a.example.com/h'), ['https://*.example.com:443/*'])).toBe(true);
    expect(urlMatchesAllowlist(u('https://a.example.com:443/h'), ['https://*.example.com:443/*'])).toBe(true);
    expect(urlMatchesAllowlist(u('http://localhost/hook'), ['http://localhost:*/hook'])).toBe(true);
    expect(urlMatchesAllowlist(u('http://localhost/'), ['http://localhost:*'])).toBe(true);
    expect(urlMatchesAllowlist(u('http://localhost:3000/hook'), ['http://localhost:*/hook'])).toBe(true);
    // Only the scheme's own default port is written in: never another port, never another host.
    expect(urlMatchesAllowlist(u('https://a.example.com:8443/h'), ['https://*.example.com:443/*'])).toBe(false);
    expect(urlMatchesAllowlist(u('http://a.example.com/h'), ['http://*.example.com:443/*'])).toBe(false);
    expect(urlMatchesAllowlist(u('https://a.example.com.evil.test/h'), ['https://*.example.com:443/*'])).toBe(false);
    expect(urlMatchesAllowlist(u('https://u@a.example.com/h'), ['https://*.example.com:443/*'])).toBe(false);
  });
  it('compares with the normalized URL: case, bare origin, port', () => {
    expect(urlMatchesAllowlist(u('https://HOOKS.example.com/'), ['https://hooks.EXAMPLE.com'])).toBe(true);
    expect(urlMatchesAllowlist(u('https://hooks.example.com:8443/x'), ['https://hooks.example.com:*/*'])).toBe(true);
    expect(urlMatchesAllowlist(u('https://hooks.example.com:443/x'), ['https://hooks.example.com/x'])).toBe(true);
    expect(urlMatchesAllowlist(u('https://hooks.example.com/X'), ['https://hooks.example.com/x'])).toBe(false);
  });
  it('regex metacharacters in patterns are literal', () => {
    expect(urlMatchesAllowlist(u('https://hooksXexample.com/'), ['https://hooks.example.com/'])).toBe(false);
    expect(urlMatchesAllowlist(u('https://h.example.com/a+b'), ['https://h.example.com/a+b'])).toBe(true);
  });
});
