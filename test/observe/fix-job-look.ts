import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { unrendered } from '../support/browser.ts';

/**
 * What a person should see on the page of a proposed fix whose agent edited
 * `src/range.js` (the App's end-to-end test and the page's own test both
 * look): the pull request's text rendered, with no Markdown source and no
 * emoji glyph; the reproduce and checks stages green; turns and tool calls
 * collapsed until clicked; the edit's arguments readable and its change a
 * diff. Leaves the edit's turn and call open.
 */
export const lookAtFixJob = async (page: Page): Promise<void> => {
  const text = page.locator('section details.text .markdown');
  expect(await text.locator('h3', { hasText: 'Checks' }).count()).toBe(1);
  expect(await text.locator('td', { hasText: 'failing-command-passes' }).count()).toBe(1);
  expect(await unrendered(page, 'details.text')).toEqual([]);
  const section = page.locator('section').first();
  await section.locator('summary', { hasText: /^trajectory/ }).click();
  const stages = section.locator('p.stage[data-status="pass"]', { hasText: /reproduce|checks/ });
  expect(await stages.count()).toBe(2);
  const first = section.locator('details.turn').first();
  expect(await first.locator(':scope > summary').textContent()).toMatch(/turn 1 — /);
  const edit = page.locator('details.call', { hasText: 'edit' });
  const turn = section.locator('details.turn', { has: edit }).first();
  const call = turn.locator('details.call', { hasText: 'edit' }).first();
  expect(await call.isVisible()).toBe(false);
  await turn.locator(':scope > summary').click();
  expect(await call.isVisible()).toBe(true);
  await call.locator(':scope > summary').click();
  const args = await call.locator(':scope > summary').textContent();
  expect(args?.replace(/\s+/g, ' ')).toMatch(/^edit path=src\/range\.js \d+ ms$/);
  expect(await call.locator('.diff .del').textContent()).toMatch(/^-.*i < n - 1/);
  expect(await call.locator('.diff .add').textContent()).toMatch(/^\+.*i < n\b/);
};
