import type { Page } from '@playwright/test';
import { expect } from './fixtures';

const isControlled = (page: Page) => page.evaluate(() => navigator.serviceWorker.controller !== null);

/**
 * Waits until the service worker controls the page (the first one claims open pages). A page whose
 * navigation began while that first worker was still activating can miss its claim for good (Chromium
 * claims only the documents that exist when `clients.claim()` runs); as a learner would, the journey then
 * reloads, and a page loaded under an active worker is always controlled. The first install precaches
 * every asset: on a loaded machine (npm test runs the PostgreSQL pass beside the journeys) that takes
 * longer than expect's default 5 s.
 */
export async function controlled(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  try {
    await expect.poll(() => isControlled(page), { timeout: 10_000 }).toBe(true);
  } catch {
    await page.reload();
    await expect.poll(() => isControlled(page), { timeout: 30_000 }).toBe(true);
  }
}

/** Downloads the chapter whose reader page is `path`, with its button, as a learner does. */
export async function downloadHere(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await controlled(page);
  await page.getByRole('button', { name: 'Download for offline' }).click();
  await expect(page.getByText('Downloaded: this chapter opens offline.')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText(/^Downloaded · \d+ KB$/)).toBeVisible();
}
