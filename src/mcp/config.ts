/**
 * MCP server definitions: the `{ "mcpServers": { name: { command, args, env } } }` shape of
 * Claude Code's `.mcp.json`, validated strictly with path-qualified diagnostics.
 *
 * - Only stdio servers are started by agent-hooks. An entry of another transport (`type`
 *   "http", "sse", "ws") is skipped with a warning: hooks naming it get the "not configured"
 *   error and their failure policy, as Claude's hooks do for a server that is not connected.
 * - `${VAR}` and `${VAR:-default}` in command, args, env and cwd expand from the environment
 *   of the process reading the file, as Claude expands `.mcp.json`. An unset variable without
 *   a default stays literal and is reported as a warning. `$VAR` is not expanded.
 * - A relative `cwd` is relative to the file's directory.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import type { Diagnostic } from '../types.js';
import { provideMcpServerSchema } from '../util/zod-slot.js';

export interface McpServerConfig {
  command: string;
  args?: string[];
  /** Added to the server's minimal environment. */
  env?: Record<string, string>;
  /** Working directory; default: the project directory. */
  cwd?: string;
}

export const mcpServerConfigSchema = z.strictObject({
  type: z.literal('stdio').optional(),
  command: z.string().min(1, 'must be a non-empty string'),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().min(1).optional(),
});

const OTHER_TRANSPORTS = new Set(['http', 'sse', 'ws', 'streamable-http', 'sse-ide', 'ws-ide', 'sdk']);

export interface McpConfigResult {
  servers: Record<string, McpServerConfig>;
  diagnostics: Diagnostic[];
}

/** Validate a parsed `{ mcpServers }` object. `file` qualifies diagnostics and anchors a relative cwd. */
export function parseMcpConfig(value: unknown, opts: { file?: string; env?: NodeJS.ProcessEnv } = {}): McpConfigResult {
  const { file } = opts;
  const env = opts.env ?? process.env;
  const diagnostics: Diagnostic[] = [];
  const servers: Record<string, McpServerConfig> = {};
  const error = (path: string, message: string) => diagnostics.push({ level: 'error', file, path, message });
  const warning = (path: string, message: string) => diagnostics.push({ level: 'warning', file, path, message });

  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    error('(root)', 'must be a JSON object with an "mcpServers" object');
    return { servers, diagnostics };
  }
  for (const key of Object.keys(value)) {
    if (key !== 'mcpServers') error(key, 'unknown key (expected only "mcpServers")');
  }
  const raw = (value as Record<string, unknown>).mcpServers;
  if (raw === undefined) {
    error('mcpServers', 'is required');
    return { servers, diagnostics };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    error('mcpServers', 'must be an object of server name → server definition');
    return { servers, diagnostics };
  }
  for (const [name, entry] of Object.entries(raw)) {
    const at = `mcpServers.${name}`;
    if (name.trim() === '') {
      error(at, 'server name must not be empty');
      continue;
    }
    const type = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>).type : undefined;
    if (typeof type === 'string' && OTHER_TRANSPORTS.has(type)) {
      warning(
        `${at}.type`,
        `"${type}" servers are not started by agent-hooks (stdio only); mcp_tool hooks naming "${name}" report an error`,
      );
      continue;
    }
    const check = mcpServerConfigSchema.safeParse(entry);
    if (!check.success) {
      for (const issue of check.error.issues) {
        const sub = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
        const message = issue.code === 'unrecognized_keys' ? `unknown key(s): ${issue.keys.join(', ')}` : issue.message;
        error(`${at}${sub}`, message);
      }
      continue;
    }
    const expand = (text: string, path: string) =>
      expandEnv(text, env, (v) => warning(path, `environment variable ${v} is not set; left as \${${v}}`));
    const def = check.data;
    const server: McpServerConfig = { command: expand(def.command, `${at}.command`) };
    if (def.args) server.args = def.args.map((a, i) => expand(a, `${at}.args[${i}]`));
    if (def.env) {
      server.env = {};
      for (const [k, v] of Object.entries(def.env)) server.env[k] = expand(v, `${at}.env.${k}`);
    }
    if (def.cwd) {
      const cwd = expand(def.cwd, `${at}.cwd`);
      server.cwd = isAbsolute(cwd) || !file ? cwd : resolve(dirname(file), cwd);
    }
    servers[name] = server;
  }
  return { servers, diagnostics };
}

/** Read and validate an MCP config file. Never throws: unreadable or invalid JSON is a diagnostic. */
export function loadMcpConfigFile(path: string, opts: { env?: NodeJS.ProcessEnv } = {}): McpConfigResult {
  const file = resolve(path);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return { servers: {}, diagnostics: [{ level: 'error', file, path: '(file)', message: `cannot read: ${(err as Error).message}` }] };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { servers: {}, diagnostics: [{ level: 'error', file, path: '(file)', message: `invalid JSON: ${(err as Error).message}` }] };
  }
  return parseMcpConfig(value, { file, env: opts.env });
}

/** `${VAR}` and `${VAR:-default}` from `env`; the default applies when VAR is unset (Claude's rule). */
export function expandEnv(text: string, env: NodeJS.ProcessEnv, onMissing?: (name: string) => void): string {
  return text.replace(/\$\{([^}]+)\}/g, (match, inner: string) => {
    const sep = inner.indexOf(':-');
    const name = sep >= 0 ? inner.slice(0, sep) : inner;
    const value = env[name];
    if (value !== undefined) return value;
    if (sep >= 0) return inner.slice(sep + 2);
    onMissing?.(name);
    return match;
  });
}

provideMcpServerSchema(mcpServerConfigSchema);
