import { defineConfig } from 'vitest/config';

/**
 * The real-agents conformance suite (test/agents, docs/agents-suite.md): installs the pinned
 * agents into a cache outside the repository and runs each inside a loopback-only network
 * namespace against a scripted fake model server.
 *   npm run test:agents
 * Two runs at a time (the machine has 2 cores); agents one after another.
 */
export default defineConfig({
  test: {
    include: ['test/agents/**/*.agents.test.ts'],
    testTimeout: 240_000,
    hookTimeout: 660_000,
    pool: 'forks',
    fileParallelism: false,
    maxConcurrency: 2,
    globalSetup: ['test/agents/harness/summary.ts'],
  },
});
