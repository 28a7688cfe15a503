/**
 * Debian's Chromium for the browser tests of the library's own pages (the OpenAPI reference, the development
 * inspector), through playwright-core, as the example app's browser test drives it. At /usr/bin/chromium, or
 * CHROMIUM_PATH. Without it a test is skipped, saying how to install it; under CI=true it fails instead.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Skips the suite `context` belongs to when there is no Chromium, except under CI=true, where it throws. */
export function requireChromium(context: Mocha.Context, what: string): void {
  if (existsSync(CHROMIUM)) return;
  const hint = `Chromium not found at ${CHROMIUM}: apt-get update && apt-get install -y chromium (or set CHROMIUM_PATH)`;
  if (process.env.CI) throw new Error(hint);
  console.warn(`  skipping ${what}. ${hint}`);
  context.skip();
}

/** Headless, and calling no outside host (a fresh profile of Playwright's own). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
}
