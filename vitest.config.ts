import { defineConfig } from 'vitest/config';
import { TEST_STATE_HOME } from './test/helpers/state-dir.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [
      'test/hardening/**',
      'test/host/e2e/**',
      'test/teams/real/**',
      'test/agents/**',
      'test/frameworks/**/*.frameworks.test.ts',
      'node_modules/**',
    ],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    env: { XDG_STATE_HOME: TEST_STATE_HOME },
    globalSetup: ['test/helpers/state-dir.ts'],
  },
});
