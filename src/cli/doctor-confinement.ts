/**
 * Where the agent confines the model's commands but not hooks, hooks run the checked bytes of their
 * pinned files by default (the sandbox "view", src/config/confinement.ts); doctor says when that
 * default cannot hold here: bwrap is not installed, or the user's settings keep it off ("none").
 * Claude Code runs hook commands outside its own sandbox (its hooks reference: "Hook commands
 * themselves run unsandboxed"), and so does Codex outside `workspace-write` (verified with codex
 * 0.169.0: a hook wrote where the model's own command got "Read-only file system"), while the
 * confined model can still write in the project. Without the view, a reviewed script swapped
 * between agent-hooks' check and the interpreter's open runs unreviewed (its answer is voided,
 * docs/security.md "Check-then-use"), and so outside the agent's confinement.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { readDocument, type DiscoveredFile } from '../agents/all.js';
import { parseJson } from '../config/diagnostics.js';
import type { LoadedConfig } from '../config/options.js';
import type { Diagnostic } from '../types.js';
import { BWRAP_DIRS, findBwrap } from '../util/bwrap.js';
import { CLAUDE_SETTINGS, CONFINING_AGENTS } from '../config/confinement.js';

const WHY =
  'and agent-hooks checks a reviewed hook script before its interpreter opens it: a script the model swaps in that moment runs outside the sandbox (its answer is voided, but it runs)';
const FIX = {
  missing: `hooks run the checked bytes by default here, but bwrap is not installed (looked in ${BWRAP_DIRS.join(', ')}): install bubblewrap (docs/security.md, check-then-use)`,
  off: 'your settings keep the sandbox off ("agentHooks": { "sandbox": "none" }): remove that so hooks run the checked bytes (docs/security.md, check-then-use)',
};

export async function confinementFindings(
  config: Pick<LoadedConfig, 'files' | 'hooks' | 'options'>,
  /** Other agents' hook and config files that exist (doctor's own list). */
  agentFiles: readonly Pick<DiscoveredFile, 'dialect' | 'file'>[],
): Promise<Diagnostic[]> {
  const off = config.options.sandbox === 'none';
  if (!off && (config.options.sandbox !== undefined || findBwrap() !== undefined)) return [];
  const fix = off ? FIX.off : FIX.missing;
  const out: Diagnostic[] = [];
  if (config.hooks.some((h) => h.handler.type === 'command'))
    for (const f of config.files) {
      if (!f.ok || !CLAUDE_SETTINGS.has(f.kind) || readJson(f.file)?.sandbox?.enabled !== true) continue;
      out.push({
        level: 'warning',
        file: f.file,
        path: 'sandbox.enabled',
        message: `Claude Code sandboxes the commands the model runs but not hook commands, ${WHY}; ${fix}`,
      });
    }
  const codex = await codexConfinement(agentFiles.filter((f) => f.dialect === 'codex').map((f) => f.file));
  if (codex)
    out.push({
      level: 'warning',
      file: codex,
      path: 'hooks',
      message: `${CONFINING_AGENTS.codex}, ${WHY}; ${fix}`,
    });
  return out;
}

function readJson(file: string): { sandbox?: { enabled?: unknown } } | undefined {
  try {
    const parsed = parseJson(readFileSync(file, 'utf8'));
    return parsed.ok && typeof parsed.value === 'object' && parsed.value !== null
      ? (parsed.value as { sandbox?: { enabled?: unknown } })
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The first Codex file with hooks, unless the Codex configs turn its sandbox off: one sets
 * `danger-full-access` and none another mode (a repository's own config must not silence the
 * warning the user's `workspace-write` calls for).
 */
async function codexConfinement(files: string[]): Promise<string | undefined> {
  let withHooks: string | undefined;
  const modes = new Set<unknown>();
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    if (basename(file) === 'hooks.json') {
      withHooks ??= file;
      continue;
    }
    const read = await readDocument(file, text);
    if (!read.ok || typeof read.doc !== 'object' || read.doc === null) continue;
    const doc = read.doc as { sandbox_mode?: unknown; hooks?: unknown };
    if (doc.sandbox_mode !== undefined) modes.add(doc.sandbox_mode);
    if (typeof doc.hooks === 'object' && doc.hooks !== null) withHooks ??= file;
  }
  return modes.size === 1 && modes.has('danger-full-access') ? undefined : withHooks;
}
