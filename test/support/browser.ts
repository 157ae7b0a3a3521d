import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's headless Chromium, as the page tests drive it. */
export const withChromium = async <T>(body: (browser: Browser) => Promise<T>): Promise<T> => {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    return await body(browser);
  } finally {
    await browser.close();
  }
};

/** Where page tests keep their screenshots (a CI job can upload the folder). */
export const ARTIFACTS = path.join(import.meta.dirname, '..', '..', 'test-results', 'screens');

export const screenshot = async (page: Page, name: string): Promise<string> => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
};

/** Every icon on the page is drawn (an SVG with a size), not a glyph that may render as a box. */
export const visibleIcons = async (page: Page): Promise<number> => {
  const icons = page.locator('svg.icon');
  const count = await icons.count();
  let drawn = 0;
  for (let i = 0; i < count; i += 1) {
    const box = await icons.nth(i).boundingBox();
    if (box && box.width > 0 && box.height > 0) drawn += 1;
  }
  return drawn;
};
