/**
 * CLAUDE_ENV_FILE support: SessionStart/Setup/CwdChanged/FileChanged command hooks may append
 * `export NAME=value` lines to a file; the engine reads them back into the decision's `env`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

export function createEnvFile(): { path: string; dispose: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'agent-hooks-env-'));
  const path = join(dir, 'env.sh');
  writeFileSync(path, '', { mode: 0o600 });
  return { path, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

const EXPORT_LINE = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$/;

/** Parse the simple `export NAME=value` lines hooks write; anything else is kept only in the file. */
export function parseEnvFile(text: string): Record<string, string> {
  const env: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const line of text.split('\n')) {
    const m = EXPORT_LINE.exec(line);
    if (!m) continue;
    const [, name, raw] = m as unknown as [string, string, string];
    env[name] = unquote(raw.trim());
  }
  return { ...env };
}

function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) return value.slice(1, -1);
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    return value.slice(1, -1).replace(/\\(["\\$`])/g, '$1');
  }
  return value;
}

export function readEnvFile(path: string): { text: string; env: Record<string, string> } {
  try {
    const text = readFileSync(path, 'utf8');
    return { text, env: parseEnvFile(text) };
  } catch {
    return { text: '', env: {} };
  }
}
