/**
 * `check` warnings for HTTP hooks: targets the policy will refuse at run time, the
 * allowedHosts opt-out (it lifts the https and address-range checks), allowInsecureTLS,
 * and header variables that will interpolate to nothing.
 */
import type { Diagnostic, NormalizedHook } from '../types.js';
import { checkUrlStatically, normalizeHost } from './target-policy.js';

type At = Pick<Diagnostic, 'level' | 'file' | 'path'>;

export function lintNetworkHook(hook: NormalizedHook, at: At): Diagnostic[] {
  const h = hook.handler;
  if (h.type !== 'http') return [];
  const out: Diagnostic[] = [];
  const s = checkUrlStatically(h.url, { allowedHosts: h.allowedHosts });
  if (!s.ok) out.push({ ...at, message: `this HTTP hook will be refused at run time: ${s.reason}` });
  if (h.allowedHosts && h.allowedHosts.length > 0) {
    const hosts = h.allowedHosts.map(normalizeHost).join(', ');
    out.push({
      ...at,
      message:
        `allowedHosts (${hosts}) lifts the https requirement AND the loopback/private/link-local/metadata address checks for these hosts; ` +
        'whoever wrote this hook takes responsibility for that network boundary',
    });
  }
  if (h.allowInsecureTLS) {
    out.push({
      ...at,
      message:
        s.ok && s.url.protocol === 'http:'
          ? 'allowInsecureTLS has no effect on an http: URL'
          : 'allowInsecureTLS: TLS certificate verification is off for this hook',
    });
  }
  const allowed = new Set(h.allowedEnvVars ?? []);
  for (const [name, value] of Object.entries(h.headers ?? {})) {
    for (const m of String(value).matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g)) {
      const v = (m[1] ?? m[2])!;
      if (!allowed.has(v)) {
        out.push({
          ...at,
          message: `headers.${name} references $${v}, which is not in allowedEnvVars; it interpolates to an empty string`,
        });
      }
    }
  }
  return out;
}
