/**
 * What `install` found in each file it changed, so `uninstall` can put an unchanged file back
 * byte for byte (a JSON edit that removes what it inserted does not always restore the
 * whitespace around it). Kept in `$XDG_STATE_HOME/agent-hooks/installs.json` (absolute only),
 * else `~/.local/state/agent-hooks/installs.json`: `{ [file]: { before, after } }`, null = no file.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import type { FileChange } from './install.js';

type Record_ = Record<string, { before: string | null; after: string | null }>;

export function recordFile(env: Readonly<Record<string, string | undefined>>, homeDir: string): string {
  const xdg = env.XDG_STATE_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(homeDir, '.local', 'state'), 'agent-hooks', 'installs.json');
}

export function readRecord(file: string): Record_ {
  try {
    const r = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return r && typeof r === 'object' ? (r as Record_) : {};
  } catch {
    return {};
  }
}

const orUndef = (s: string | null | undefined) => (s === null ? undefined : s);

/** Uninstall: a file still exactly as install left it goes back to what install found. */
export function restoring(changes: readonly FileChange[], record: Record_): FileChange[] {
  return changes.map((c) => {
    const r = record[c.file];
    return r && orUndef(r.after) === c.before ? { ...c, after: orUndef(r.before) } : c;
  });
}

/** Writes the changes and keeps the record in step: `install` records, `uninstall` forgets. */
export function applyChanges(changes: readonly FileChange[], mode: 'install' | 'uninstall', file: string): void {
  const record = readRecord(file);
  for (const c of changes) {
    if (c.after === undefined) rmSync(c.file, { force: true });
    else {
      mkdirSync(dirname(c.file), { recursive: true });
      writeFileSync(c.file, c.after);
      if (c.executable) chmodSync(c.file, 0o755);
    }
    if (mode === 'uninstall') delete record[c.file];
    else {
      const prior = record[c.file];
      const found = prior && orUndef(prior.after) === c.before ? prior.before : (c.before ?? null);
      record[c.file] = { before: found, after: c.after ?? null };
    }
  }
  if (!changes.length) return;
  if (Object.keys(record).length === 0 && !existsSync(file)) return;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
}
