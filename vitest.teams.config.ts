import { defineConfig } from 'vitest/config';
import { TEST_STATE_HOME } from './test/helpers/state-dir.js';

/**
 * The team suite's real-part tests (test/teams/real): a PostgreSQL server each test file starts
 * itself, the real OTLP exporter against a loopback receiver, the policy server under load.
 *   npm run test:teams
 * The fast unit tests of the same modules (test/teams/*.test.ts) stay in `npm test`.
 */
export default defineConfig({
  test: {
    include: ['test/teams/real/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
    env: { XDG_STATE_HOME: TEST_STATE_HOME },
    globalSetup: ['test/helpers/state-dir.ts'],
  },
});
