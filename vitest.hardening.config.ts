import { defineConfig } from 'vitest/config';
import { TEST_STATE_HOME } from './test/helpers/state-dir.js';

/**
 * The hardening suite (test/hardening): adversarial hooks, configs and payloads, memory and
 * the concurrency bound, with real processes and the built CLI (dist/). See docs/hardening.md.
 *   npm run test:hardening      everything (~4 min on a 2-core machine)
 *   npm run test:hardening:ci   `--mode ci`: the CI subset (~2 min): fewer generated cases and
 *                               events, CLI runs under one policy only (HARDENING_CI=1)
 */
export default defineConfig(({ mode }) => ({
  test: {
    include: ['test/hardening/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The files spawn many processes and count them in the process table: one file at a time,
    // so a 2-core machine does not turn timing-sensitive cases into timeouts.
    fileParallelism: false,
    env: { XDG_STATE_HOME: TEST_STATE_HOME, ...(mode === 'ci' ? { HARDENING_CI: '1' } : {}) },
    globalSetup: ['test/helpers/state-dir.ts'],
  },
}));
