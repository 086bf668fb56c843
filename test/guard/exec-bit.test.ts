/**
 * A reviewed guard run by its path, made non-executable with the same bytes (found by the attacker
 * review): the file's record holds its content, not its mode, so the workspace stays trusted, and
 * the shell's exit 126 read as the hook's own non-blocking error let the call through. The guard
 * did not run: that is the engine's failure, and it fails closed (src/engine/execute.ts).
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dispatchShell, GUARD_SH, sandbox, trust, verdict, type Sandbox } from './helpers.js';

const sandboxes: Sandbox[] = [];
afterAll(() => {
  for (const sb of sandboxes) sb.dir.cleanup();
});

describe('a reviewed guard that can no longer be executed', () => {
  it('its x bit dropped (same bytes, renamed over): deny with the reason, not proceed', async () => {
    const sb = sandbox();
    sandboxes.push(sb);
    sb.dir.write('p/hooks/guard.sh', GUARD_SH, 0o755);
    sb.dir.json('p/.claude/settings.json', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/hooks/guard.sh' }] }] },
    });
    const dir = sb.dir.path('p');
    await trust(sb, dir);
    expect(verdict(await dispatchShell('claude', dir, 'ls', { env: sb.env }))).toBe('proceed');
    const guard = join(dir, 'hooks/guard.sh');
    writeFileSync(`${guard}.new`, readFileSync(guard), { mode: 0o644 });
    renameSync(`${guard}.new`, guard);
    const r = await dispatchShell('claude', dir, 'rm -rf build', { env: sb.env });
    expect(verdict(r)).toBe('deny');
    expect(r.stdout + r.stderr).toContain('could not be executed (exit 126)');
  });
});
