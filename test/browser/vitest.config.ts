import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Browser tests of `agent-hooks serve` (`npm run test:browser`): playwright-core drives Debian's
 * chromium (/usr/bin/chromium; never a downloaded browser). Files are `*.browser.ts`, so the
 * default `npm test` never picks them up. Screenshots go to test-artifacts/serve/ (gitignored).
 */
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/browser/**/*.browser.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
