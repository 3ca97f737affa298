import AxeBuilder from '@axe-core/playwright';
import { build } from 'esbuild';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './helpers/fixtures';
import { LAPTOP, PHONE } from './helpers/screens';

/**
 * The design system's scripted components (docs/design.md) as a page script uses them: the bottom sheet
 * (site/lib/ui/sheet.ts) and the tabs (site/lib/ui/tabs.ts), on a real page with the site's styles. The
 * modules are bundled here and put on the page, as the reader's scripts and the word lookups would use
 * them; the page's CSP, which allows only the site's own scripts, is bypassed for that.
 */
test.use({ bypassCSP: true });

let bundle = '';
test.beforeAll(async () => {
  const lib = join(__dirname, '..', 'site', 'lib', 'ui');
  const built = await build({
    stdin: {
      contents: `export * from './sheet'; export * from './tabs';`,
      resolveDir: lib,
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'designSystem',
  });
  bundle = built.outputFiles[0].text;
});

type Ui = typeof import('../site/lib/ui/sheet') & typeof import('../site/lib/ui/tabs');
declare global {
  interface Window {
    designSystem: Ui;
  }
}

/** A page of the site with an "Open" button that opens a new sheet holding one paragraph. */
async function withSheet(page: Page): Promise<void> {
  await page.goto('/about');
  await page.addScriptTag({ content: bundle });
  await page.evaluate(() => {
    const { dialog, body } = window.designSystem.createSheet('Word details', {
      closeLabel: 'Close the details',
    });
    body.append(Object.assign(document.createElement('p'), { textContent: 'Fähre: ferry.' }));
    const opener = Object.assign(document.createElement('button'), { type: 'button', textContent: 'Open' });
    opener.addEventListener('click', () => window.designSystem.openSheet(dialog));
    document.querySelector('main')!.prepend(opener);
  });
}

const sheet = (page: Page) => page.getByRole('dialog', { name: 'Word details' });

test.describe('on a phone', () => {
  test.use(PHONE);

  test('the sheet slides up from the bottom, full width, and closes on Escape, the backdrop and its button', async ({
    page,
  }) => {
    await withSheet(page);
    const opener = page.getByRole('button', { name: 'Open' });
    await opener.click();
    await expect(sheet(page)).toBeVisible();
    await expect(sheet(page)).toContainText('Fähre: ferry.');
    // The animation ends with the sheet on the bottom edge.
    await expect
      .poll(async () => {
        const box = (await sheet(page).boundingBox())!;
        return [Math.round(box.x), Math.round(box.width), Math.round(box.y + box.height)];
      })
      .toEqual([0, 375, 812]);
    const close = page.getByRole('button', { name: 'Close the details' });
    const closeBox = (await close.boundingBox())!;
    expect(Math.min(closeBox.width, closeBox.height)).toBeGreaterThanOrEqual(44);
    // Its close button is drawn by the icon set: no glyph in its text.
    await expect(close).toHaveText('');
    await expect(close.locator('svg')).toHaveCount(1);
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

    await page.keyboard.press('Escape');
    await expect(sheet(page)).toBeHidden();
    // The browser gives the focus back to what opened it.
    await expect(opener).toBeFocused();

    await opener.click();
    await expect(sheet(page)).toBeVisible();
    // A tap above the sheet lands on its backdrop.
    await page.mouse.click(180, 40);
    await expect(sheet(page)).toBeHidden();

    await opener.click();
    // A tap inside it leaves it open.
    await sheet(page).getByText('Fähre: ferry.').click();
    await expect(sheet(page)).toBeVisible();
    await close.click();
    await expect(sheet(page)).toBeHidden();
    await expect(opener).toBeFocused();
  });
});

test.describe('on a laptop', () => {
  test.use(LAPTOP);

  test('the sheet is a dialog centred on the screen', async ({ page }) => {
    await withSheet(page);
    await page.getByRole('button', { name: 'Open' }).click();
    await expect(sheet(page)).toBeVisible();
    const box = (await sheet(page).boundingBox())!;
    expect(Math.abs(box.x + box.width / 2 - 640)).toBeLessThanOrEqual(1);
    expect(Math.abs(box.y + box.height / 2 - 400)).toBeLessThanOrEqual(1);
    expect(box.width).toBeLessThan(640);
  });
});

test('tabs: a click or the arrow keys choose a tab, and only its panel shows', async ({ page }) => {
  await page.goto('/about');
  await page.addScriptTag({ content: bundle });
  await page.evaluate(() => {
    const main = document.querySelector('main')!;
    main.insertAdjacentHTML(
      'afterbegin',
      `<div class="tabs" role="tablist" aria-label="Cards">
        <button type="button" role="tab" id="t-1" aria-controls="p-1" aria-selected="true">Words</button>
        <button type="button" role="tab" id="t-2" aria-controls="p-2">Phrases</button>
        <button type="button" role="tab" id="t-3" aria-controls="p-3">All</button>
      </div>
      <div role="tabpanel" id="p-1" aria-labelledby="t-1">Words panel</div>
      <div role="tabpanel" id="p-2" aria-labelledby="t-2">Phrases panel</div>
      <div role="tabpanel" id="p-3" aria-labelledby="t-3">All panel</div>`,
    );
    window.designSystem.setUpTabs(main.querySelector('.tabs')!);
  });
  const tab = (name: string) => page.getByRole('tab', { name });
  await expect(tab('Words')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel')).toHaveText('Words panel');
  await tab('Phrases').click();
  await expect(tab('Phrases')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel')).toHaveText('Phrases panel');
  await page.keyboard.press('ArrowRight');
  await expect(tab('All')).toBeFocused();
  await expect(page.getByRole('tabpanel')).toHaveText('All panel');
  await page.keyboard.press('ArrowRight');
  await expect(tab('Words')).toBeFocused();
  await page.keyboard.press('End');
  await expect(tab('All')).toHaveAttribute('aria-selected', 'true');
  // Only the chosen tab is in the Tab order.
  expect(await page.locator('[role=tab][tabindex="0"]').count()).toBe(1);
  const box = (await tab('Words').boundingBox())!;
  expect(box.height).toBeGreaterThanOrEqual(44);
});
