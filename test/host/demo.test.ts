/** `agent-hooks demo` through the built CLI: exit 0, the trace of every step, no workspace left behind. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI, requireBuiltCli } from '../helpers/cli.js';

requireBuiltCli();

describe('agent-hooks demo', () => {
  it('runs the scripted session, prints each event, hook and decision, exits 0 and cleans up', () => {
    const r = spawnSync(process.execPath, [CLI, 'demo'], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = r.stdout;
    for (const expected of [
      /⚡ SessionStart ⇒ context: .*env: DEMO_STAGE/,
      /⚡ UserPromptSubmit ⇒ context:/,
      /⚡ PreToolUse ⇒ decision deny \(blocked\)\n.*exit 2.*→ deny: Blocked: rm -rf is not allowed/,
      /✗ Bash denied by hook/,
      /⚡ PreToolUse ⇒ decision allow; input rewritten/,
      /⚡ Stop ⇒ decision block \(blocked\)\n.*→ block: Before you finish/,
      /CompactionBlockedError: the audit needs the full history/,
      /⚡ Elicitation ⇒ action accept \{"name":"Ada"\}/,
      /✓ mcp__greeter__greet ok: Hello, Ada!/,
      /⚡ SessionEnd/,
      /Demo finished/,
    ]) {
      expect(out).toMatch(expected);
    }
    const removed = /Temporary workspace removed: (\S+)/.exec(out)?.[1];
    expect(removed).toBeDefined();
    expect(existsSync(removed!)).toBe(false);
  });
});

describe('agent-hooks demo without the MCP SDK (an optional peer)', () => {
  it('runs every other step, says the MCP step was left out and why, and exits 0', () => {
    const hide = fileURLToPath(new URL('../fixtures/mcp/hide-sdk.mjs', import.meta.url));
    const r = spawnSync(process.execPath, ['--import', hide, CLI, 'demo'], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/⚡ PreToolUse ⇒ decision deny \(blocked\)/);
    expect(r.stdout).toMatch(/CompactionBlockedError/);
    expect(r.stdout).toContain('left out: the greeter MCP server needs @modelcontextprotocol/sdk');
    expect(r.stdout).not.toMatch(/Elicitation ⇒|mcp__greeter__greet ok/);
    expect(r.stdout).toMatch(/⚡ SessionEnd/);
    expect(r.stdout).toMatch(/Demo finished/);
  });
});
