import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { EMOJI_PATTERN } from '../../src/observe/icons.ts';

/** Debian's headless Chromium, as the page tests drive it (close it when done). */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
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

/** A browser for the body, closed after it. */
export const withChromium = async <T>(body: (browser: Browser) => Promise<T>): Promise<T> => {
  const browser = await launchChromium();
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

/**
 * Text on the page (outside the SVG icons) with an emoji in it, which a
 * machine without an emoji font draws as a box. The pattern is the pages' own.
 */
export const emojiText = async (page: Page): Promise<string[]> =>
  // The page's own script runs in the browser (this project's types have no DOM).
  page.evaluate<string[]>(`(() => {
    const emoji = new RegExp(${JSON.stringify(EMOJI_PATTERN.source)}, 'u');
    const found = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode())
      if (!node.parentElement.closest('svg') && emoji.test(node.nodeValue)) found.push(node.nodeValue);
    return found;
  })()`);

/** Markdown that was not rendered (`**`, a `#` heading, a table's `|---|`) in the element's text outside code. */
export const literalMarkdown = async (page: Page, selector: string): Promise<string[]> => {
  const texts = await page.evaluate<string[]>(`
    [...document.querySelectorAll(${JSON.stringify(selector)})].map((element) => {
      const copy = element.cloneNode(true);
      for (const code of copy.querySelectorAll('pre, code')) code.remove();
      return copy.textContent;
    })`);
  return texts.flatMap((text) => text.match(/\*\*\S|^ *#{1,6} |\|\s*-{3,}\s*\|/gm) ?? []);
};

/** What is left unrendered: Markdown source in the element's text, emoji text anywhere. */
export const unrendered = async (page: Page, selector: string): Promise<string[]> => [
  ...(await literalMarkdown(page, selector)),
  ...(await emojiText(page)),
];
