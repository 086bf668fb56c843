import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { TempDir } from '../helpers/tmp.js';
import type { NormalizedHook } from '../../src/types.js';

/**
 * A HOME inside `dir` with the trust store under it, and an environment for the CLI that points at
 * both (XDG_CONFIG_HOME dropped so the machine's own config is never read).
 */
export function trustHome(dir: TempDir): { store: string; env: NodeJS.ProcessEnv } {
  mkdirSync(dir.path('home'));
  const store = dir.path('home', '.config', 'agent-hooks', 'trust.json');
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: dir.path('home'), AGENT_HOOKS_TRUST_STORE: store };
  delete env.XDG_CONFIG_HOME;
  return { store, env };
}

/** Run git in `cwd` with a fixed identity; throws on failure. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** A project with `.claude/settings.json` and a script it runs by path. */
export function makeProject(
  dir: TempDir,
  rel = 'proj',
  script = 'echo from-project-script',
): { root: string; settings: string; script: string } {
  const root = dir.path(rel);
  mkdirSync(root, { recursive: true });
  const scriptFile = dir.write(join(rel, 'hooks', 'ctx.sh'), `${script}\n`);
  const settings = dir.json(join(rel, '.claude', 'settings.json'), {
    hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'sh "${CLAUDE_PROJECT_DIR}/hooks/ctx.sh"' }] }] },
  });
  return { root, settings, script: scriptFile };
}

export const prompt = { prompt: 'hi', session_id: 's', transcript_path: '', cwd: '/', hook_event_name: 'UserPromptSubmit' };

/**
 * Issue 39 class 4: the hooks of a reviewed workspace that changed stay, failing verification
 * (the engine fails closed on their events); the reasons, one per hook. Throws when one would run.
 */
export async function failedVerification(hooks: readonly NormalizedHook[], at: { cwd: string; projectDir: string }): Promise<string[]> {
  const reasons: string[] = [];
  for (const h of hooks) {
    const v = await h.verify?.(at);
    if (!v || !('failed' in v)) throw new Error(`hook ${h.id} would run`);
    reasons.push(v.failed);
  }
  return reasons;
}
