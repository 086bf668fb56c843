/** The project of a hook call (issue 39, class 1): --cwd, the agent's variable, the trusted workspace above cwd, cwd. */
import { mkdirSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentProjectDir } from '../../src/load/project-dir.js';
import { updateTrustStore } from '../../src/trust/store.js';
import { resolveWorkspace } from '../../src/trust/workspace.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';

let dir: TempDir;
let env: NodeJS.ProcessEnv;
let project = '';
beforeEach(async () => {
  dir = tempDir();
  env = { HOME: dir.path('home'), AGENT_HOOKS_TRUST_STORE: dir.path('store', 'trust.json') };
  project = dir.path('project');
  mkdirSync(`${project}/sub/deeper`, { recursive: true });
  const { identity } = await resolveWorkspace(project);
  await updateTrustStore(env.AGENT_HOOKS_TRUST_STORE!, (data) => {
    data.workspaces[identity] = { path: project, workspaceTrustedAt: new Date(0).toISOString() };
  });
});
afterEach(() => dir.cleanup());

describe('agentProjectDir', () => {
  it('walks up from cwd to the trusted workspace that contains it', async () => {
    expect(await agentProjectDir({ cwd: `${project}/sub/deeper`, envNames: [], env })).toBe(project);
    expect(await agentProjectDir({ cwd: project, envNames: [], env })).toBe(project);
  });

  it('finds it from a cwd that no longer exists', async () => {
    expect(await agentProjectDir({ cwd: `${project}/sub/removed`, envNames: [], env })).toBe(project);
  });

  it("the agent's own variable wins over the walk, first set name first; a relative value is ignored", async () => {
    const other = dir.path('other');
    const names = ['GEMINI_PROJECT_DIR', 'CLAUDE_PROJECT_DIR'];
    expect(await agentProjectDir({ cwd: `${project}/sub`, envNames: names, env: { ...env, CLAUDE_PROJECT_DIR: other } })).toBe(other);
    expect(await agentProjectDir({ cwd: `${project}/sub`, envNames: names, env: { ...env, GEMINI_PROJECT_DIR: 'rel' } })).toBe(project);
    // Another agent's variable (inherited from an outer session) is not this agent's project.
    expect(await agentProjectDir({ cwd: `${project}/sub`, envNames: [], env: { ...env, CLAUDE_PROJECT_DIR: other } })).toBe(project);
  });

  it('--cwd wins over everything', async () => {
    const named = dir.path('named');
    expect(
      await agentProjectDir({
        flagCwd: named,
        cwd: `${project}/sub`,
        envNames: ['CLAUDE_PROJECT_DIR'],
        env: { ...env, CLAUDE_PROJECT_DIR: project },
      }),
    ).toBe(named);
  });

  it('with no trusted workspace above it, the project is cwd', async () => {
    const elsewhere = dir.path('elsewhere');
    expect(await agentProjectDir({ cwd: elsewhere, envNames: [], env })).toBe(elsewhere);
  });
});
