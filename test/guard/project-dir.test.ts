/**
 * Issue 39, class 1: the project is the agent's project, not its current directory.
 *
 * Each `it.fails` below states the guarantee as it should hold and fails on today's code (so
 * vitest reports it as passing while the bug is there). When the fix lands it turns red: flip it
 * to `it(...)`. The plain `it` controls show the set-up itself works (the guard denies from the
 * project root), so an `it.fails` cannot pass by a broken set-up.
 */
import { mkdirSync, rmdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, dispatchShell, guardedProject, sandbox, trust, verdict, type Sandbox } from './helpers.js';

let sb: Sandbox;
let project = '';
beforeAll(async () => {
  sb = sandbox();
  project = guardedProject(sb);
  mkdirSync(`${project}/sub`);
  await trust(sb, project);
});
afterAll(() => sb.dir.cleanup());

describe('control: the trusted project guard denies `rm -rf` from the project root', () => {
  it.concurrent.each(DIALECTS)('%s', async (agent) => {
    expect(verdict(await dispatchShell(agent, project, 'rm -rf build', { env: sb.env }))).toBe('deny');
  });
});

describe('after `cd sub`, the project’s trusted guard still denies `rm -rf`', () => {
  // The payload's cwd is where the agent's shell is now; the trusted workspace that contains it is the project.
  it.concurrent.each(DIALECTS)('%s', async (agent) => {
    expect(verdict(await dispatchShell(agent, `${project}/sub`, 'rm -rf build', { env: sb.env }))).toBe('deny');
  });

  it.concurrent('claude, with CLAUDE_PROJECT_DIR naming the project (as Claude Code sets it for hooks)', async () => {
    const env = { ...sb.env, CLAUDE_PROJECT_DIR: project };
    expect(verdict(await dispatchShell('claude', `${project}/sub`, 'rm -rf build', { env }))).toBe('deny');
  });

  it.concurrent('gemini, with GEMINI_PROJECT_DIR naming the project', async () => {
    const env = { ...sb.env, GEMINI_PROJECT_DIR: project, CLAUDE_PROJECT_DIR: project };
    expect(verdict(await dispatchShell('gemini', `${project}/sub`, 'rm -rf build', { env }))).toBe('deny');
  });
});

describe('a working directory that no longer exists: the project guard runs in the project directory', () => {
  // `mkdir t && cd t && rmdir ../t`: the shell stays in a deleted directory.
  it.concurrent.each(['claude', 'codex', 'gemini', 'cursor'] as const)('%s', async (agent) => {
    const gone = `${project}/t-${agent}`;
    mkdirSync(gone);
    rmdirSync(gone);
    const env = { ...sb.env, CLAUDE_PROJECT_DIR: project };
    expect(verdict(await dispatchShell(agent, gone, 'rm -rf build', { env }))).toBe('deny');
  });
});
