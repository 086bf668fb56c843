/**
 * A reviewed guard run by its path, made non-executable with the same bytes (found by the attacker
 * review): the file's record holds its content, not its mode, so the workspace stays trusted, and
 * the shell's exit 126 read as the hook's own non-blocking error let the call through. The guard
 * did not run: that is the engine's failure, and it fails closed (src/engine/execute.ts).
 */
import { chmodSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
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
    // The verifier sees the mode first; execute.ts's exit-126 rule covers a drop after the check.
    expect(r.stdout + r.stderr).toMatch(/cannot be executed|could not be executed \(exit 126\)/);
  });
  // Attacker review: `|| true` hides the 126, so the verifier checks the x bit before running.
  it('a JSON-answering guard run as `guard.sh || true`, its x bit dropped: deny', async () => {
    const sb = sandbox();
    sandboxes.push(sb);
    const deny = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm -rf"}}';
    sb.dir.write('p/hooks/guard.sh', `#!/bin/sh\nif grep -q 'rm -rf'; then echo '${deny}'; fi\nexit 0\n`, 0o755);
    sb.dir.json('p/.claude/settings.json', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/hooks/guard.sh || true' }] }] },
    });
    const dir = sb.dir.path('p');
    await trust(sb, dir);
    const call = async (cmd: string) => verdict(await dispatchShell('claude', dir, cmd, { env: sb.env }));
    expect(await call('ls')).toBe('proceed');
    expect(await call('rm -rf build')).toBe('deny');
    chmodSync(join(dir, 'hooks/guard.sh'), 0o644);
    const r = await dispatchShell('claude', dir, 'ls', { env: sb.env });
    expect(verdict(r)).toBe('deny');
    expect(r.stdout + r.stderr).toContain('cannot be executed');
  });
  it('a guard run by an interpreter (`sh hooks/guard.sh`) needs no x bit: proceeds', async () => {
    const sb = sandbox();
    sandboxes.push(sb);
    sb.dir.write('p/hooks/guard.sh', GUARD_SH, 0o644);
    sb.dir.json('p/.claude/settings.json', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'sh "$CLAUDE_PROJECT_DIR"/hooks/guard.sh' }] }] },
    });
    const dir = sb.dir.path('p');
    await trust(sb, dir);
    expect(verdict(await dispatchShell('claude', dir, 'ls', { env: sb.env }))).toBe('proceed');
    expect(verdict(await dispatchShell('claude', dir, 'rm -rf build', { env: sb.env }))).toBe('deny');
  });
});
