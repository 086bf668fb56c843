import { defineConfig } from 'vitest/config';
import { TEST_STATE_HOME } from './test/helpers/state-dir.js';

/**
 * The host runtime's end-to-end suite (test/host/e2e): every event the reference runtime fires
 * and seed 000's orderings, with real hook processes and real sessions (~25 s on 2 cores).
 *   npm run test:host
 * The fast host tests (slots, permissions, tools, model, demo) stay in `npm test`.
 */
export default defineConfig({
  test: {
    include: ['test/host/e2e/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    env: { XDG_STATE_HOME: TEST_STATE_HOME },
    globalSetup: ['test/helpers/state-dir.ts'],
  },
});
