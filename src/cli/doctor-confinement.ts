/**
 * Where the agent confines the model's commands but not hooks, doctor says so: Claude Code runs hook
 * commands outside its own sandbox (its hooks reference: "Hook commands themselves run
 * unsandboxed"), while the sandboxed model can still write in the project. Without
 * `agentHooks.sandbox: "bwrap"`, a reviewed script swapped between agent-hooks' check and the
 * interpreter's open runs unreviewed (its answer is voided, docs/security.md "Check-then-use"),
 * and so outside the agent's sandbox. With it, the hook runs the checked bytes.
 */
import { readFileSync } from 'node:fs';
import { parseJson } from '../config/diagnostics.js';
import type { LoadedConfig } from '../config/options.js';
import type { Diagnostic } from '../types.js';

/** Claude's own settings files: the layers whose `sandbox` key is Claude's. */
const CLAUDE_SETTINGS = new Set(['managed', 'user', 'project', 'local', 'cli']);

export function confinementFindings(config: Pick<LoadedConfig, 'files' | 'hooks' | 'options'>): Diagnostic[] {
  if (config.options.sandbox === 'bwrap' || !config.hooks.some((h) => h.handler.type === 'command')) return [];
  const out: Diagnostic[] = [];
  for (const f of config.files) {
    if (!f.ok || !CLAUDE_SETTINGS.has(f.kind) || !sandboxEnabled(f.file)) continue;
    out.push({
      level: 'warning',
      file: f.file,
      path: 'sandbox.enabled',
      message:
        'Claude Code sandboxes the commands the model runs but not hook commands, and agent-hooks checks a reviewed hook script before its interpreter opens it: a script the model swaps in that moment runs outside the sandbox (its answer is voided, but it runs). Set "agentHooks": { "sandbox": "bwrap" } so hooks run the checked bytes, sandboxed (docs/security.md, check-then-use)',
    });
  }
  return out;
}

function sandboxEnabled(file: string): boolean {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return false;
  }
  const parsed = parseJson(text);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return false;
  const sandbox = (parsed.value as { sandbox?: unknown }).sandbox;
  return typeof sandbox === 'object' && sandbox !== null && (sandbox as { enabled?: unknown }).enabled === true;
}
