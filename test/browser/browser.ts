/**
 * Launching Debian's chromium for the browser tests: playwright-core with an explicit
 * executablePath (playwright never downloads a browser here), a fresh user-data-dir per launch,
 * and flags that keep the browser off the network except for the loopback panel.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's chromium; AGENT_HOOKS_CHROMIUM names another binary (e.g. to check the skip path). */
export const CHROMIUM = process.env.AGENT_HOOKS_CHROMIUM ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
export const SKIP_MESSAGE = `browser tests skipped: ${CHROMIUM} not found (Debian: apt-get install -y chromium)`;

export const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/serve/', import.meta.url));

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];

export interface Browser {
  context: BrowserContext;
  /** A new page that records page errors and failed console messages. */
  page(): Promise<{ page: Page; errors: string[] }>;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'agent-hooks-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
  });
  return {
    context,
    async page() {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(`console: ${m.text()}`);
      });
      return { page, errors };
    },
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = join(ARTIFACTS, name);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
