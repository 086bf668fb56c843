import { defineConfig } from 'vitest/config';

/**
 * The frameworks suite (test/frameworks, docs/frameworks.md): each framework's own agent loop and
 * real provider package against the agents suite's scripted fake model on a loopback port, every
 * scenario native and through the framework's adapter (agent-hooks/<framework>).
 *   npm run test:frameworks
 * One file at a time (the machine has 2 cores); the example runs need the built dist/.
 */
export default defineConfig({
  test: {
    include: ['test/frameworks/**/*.frameworks.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
