/**
 * What the panel may show. Secrets never leave the server:
 * - values of a hook's `env` (command hooks) and `headers` (HTTP hooks) are replaced by HIDDEN,
 *   in hook details, in field changes and in config diffs — names stay, so a reviewer sees what
 *   is set and which environment variables an HTTP hook may send (`allowedEnvVars`);
 * - the password of a URL's user-info is replaced by HIDDEN;
 * - script contents are shown only for files inside the workspace that do not look like secret
 *   material (see `showableScript`); every other referenced file shows its hash only.
 * Commands, prompts and URLs are otherwise shown exactly: they are what is being reviewed.
 */
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { Change } from '../trust/index.js';
import { isPathInside } from '../util/path-inside.js';

export const HIDDEN = '«hidden»';

/** Keys under which every value is a secret. */
const SECRET_MAPS = new Set(['env', 'headers']);

function hideValues(v: unknown): unknown {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return HIDDEN;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) out[k] = HIDDEN;
  return out;
}

/** A URL with the user-info password hidden; anything unparsable is returned as is. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password === '') return url;
    u.password = 'hidden';
    return u.toString().replace(':hidden@', `:${HIDDEN}@`);
  } catch {
    return url;
  }
}

/** A handler (or canonical handler) with secret values hidden; other fields copied. */
export function redactHandler(handler: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(handler)) {
    if (typeof v === 'function') continue;
    if (SECRET_MAPS.has(k)) out[k] = hideValues(v);
    else if (k === 'url' && typeof v === 'string') out[k] = redactUrl(v);
    else out[k] = v;
  }
  return out;
}

/** A canonical hook (or any object with a `handler`) with its handler redacted. */
export function redactHook<T extends { handler: Record<string, unknown> }>(hook: T): T {
  return { ...hook, handler: redactHandler(hook.handler) };
}

/** A field change with secret values hidden (fields `handler.env…`, `handler.headers…`, `handler.url`). */
export function redactChange(c: Change): Change {
  if (c.kind !== 'config' || !c.field) return c;
  const parts = c.field.split('.');
  if (parts[0] === 'handler' && parts[1] !== undefined && SECRET_MAPS.has(parts[1])) {
    const whole = parts.length === 2;
    const hide = (v: unknown) => (v === undefined ? undefined : whole ? hideValues(v) : HIDDEN);
    return {
      ...c,
      ...(c.before !== undefined ? { before: hide(c.before) } : {}),
      ...(c.after !== undefined ? { after: hide(c.after) } : {}),
    };
  }
  if (c.field === 'handler') {
    const hide = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? redactHandler(v as Record<string, unknown>) : v);
    return { ...c, before: hide(c.before), after: hide(c.after) };
  }
  if (c.field === 'handler.url') {
    const hide = (v: unknown) => (typeof v === 'string' ? redactUrl(v) : v);
    return { ...c, before: hide(c.before), after: hide(c.after) };
  }
  return c;
}

const SECRET_NAME =
  /^(\.env(\..*)?|\.netrc|\.npmrc|\.pypirc|\.pgpass|id_[a-z0-9]+|.*\.(pem|key|p12|pfx|jks|keystore|gpg|asc)|.*credential.*|.*secret.*|.*token.*|.*password.*)$/i;

/**
 * May the panel show (and keep a copy of) this referenced file's content? Only files inside the
 * workspace root, outside `.git`, whose name does not look like secret material. A project
 * hook that "references" `~/.ssh/id_rsa` must not make the panel display it.
 */
/**
 * `showableScript` decided on the real path as well as the path as written: a script in the
 * repository that is a symlink to `~/.aws/credentials` (or to any file outside the workspace)
 * shows its hash only. Both the file and the workspace root are resolved.
 */
export async function showableRealScript(file: string, workspaceRoot: string): Promise<boolean> {
  if (!showableScript(file, workspaceRoot)) return false;
  let realFile: string;
  let realRoot: string;
  try {
    realFile = await realpath(file);
  } catch {
    return true; // missing: nothing to show
  }
  try {
    realRoot = await realpath(workspaceRoot);
  } catch {
    realRoot = workspaceRoot;
  }
  return showableScript(realFile, realRoot);
}

export function showableScript(file: string, workspaceRoot: string): boolean {
  if (!isPathInside(file, workspaceRoot)) return false;
  const rel = path.relative(workspaceRoot, file).split(path.sep);
  if (rel.includes('.git') || rel.includes('.ssh') || rel.includes('.gnupg') || rel.includes('.aws')) return false;
  return !SECRET_NAME.test(path.basename(file));
}
