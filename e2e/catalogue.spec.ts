import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

/** How many slides are wholly inside the slider's visible track. */
async function visibleSlides(page: Page): Promise<number> {
  return page.locator('cover-slider').evaluate((slider) => {
    const track = slider.querySelector('.track')!.getBoundingClientRect();
    return [...slider.querySelectorAll('.slide')].filter((slide) => {
      const box = slide.getBoundingClientRect();
      return box.width > 0 && box.left >= track.left - 1 && box.right <= track.right + 1;
    }).length;
  });
}

test('a visitor browses to a book and plays its sample', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'Browse' }).click();
  await page.getByRole('heading', { level: 3 }).first().getByRole('link').click();
  await expect(page).toHaveURL(/\/book-detail\/[a-z0-9-]+$/);

  const audio = page.getByLabel(/^Sample of /);
  await expect(audio).toHaveAttribute('preload', /^(none|metadata)$/);
  await audio.evaluate((element: HTMLAudioElement) => {
    element.muted = true;
    return element.play();
  });
  await expect
    .poll(() => audio.evaluate((element: HTMLAudioElement) => element.currentTime), { timeout: 10_000 })
    .toBeGreaterThan(0.2);
});

for (const [width, expected] of [
  [375, 1],
  [800, 2],
  [1280, 3],
] as const) {
  test(`the /lingostory carousel shows ${expected} book(s) at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/lingostory');
    await expect(page.locator('cover-slider.is-enhanced')).toBeVisible();
    expect(await visibleSlides(page)).toBe(expected);
  });
}

test('the carousel moves with its buttons and the keyboard', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 900 });
  await page.goto('/lingostory');
  const slider = page.locator('cover-slider.is-enhanced');
  const titles = page.locator('.slide .title');
  const shownTitle = () =>
    slider.evaluate((element) => {
      const track = element.querySelector('.track')!.getBoundingClientRect();
      const shown = [...element.querySelectorAll('.slide')].find((slide) => {
        const box = slide.getBoundingClientRect();
        return box.left >= track.left - 1 && box.right <= track.right + 1;
      });
      return shown?.querySelector('.title')?.textContent;
    });
  await expect(slider).toHaveAttribute('data-index', '0');

  await page.getByRole('button', { name: 'Next books' }).click();
  await expect(slider).toHaveAttribute('data-index', '1');
  expect(await shownTitle()).toBe(await titles.nth(1).textContent());

  await page.getByRole('button', { name: 'Previous books' }).click();
  await expect(slider).toHaveAttribute('data-index', '0');
  expect(await shownTitle()).toBe(await titles.nth(0).textContent());

  await page
    .getByRole('link', { name: /^Cover of / })
    .first()
    .focus();
  await page.keyboard.press('ArrowRight');
  await expect(slider).toHaveAttribute('data-index', '1');
});

test('without JavaScript the covers are a plain list of links', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/lingostory');
  const links = page.getByRole('link', { name: /^Cover of / });
  expect(await links.count()).toBeGreaterThanOrEqual(6);
  await expect(links.nth(5)).toBeVisible();
  await context.close();
});

test('the sliders honour prefers-reduced-motion: no autoplay', async ({ browser }) => {
  const context = await browser.newContext({
    reducedMotion: 'reduce',
    viewport: { width: 375, height: 900 },
  });
  const page = await context.newPage();
  await page.goto('/lingonovel-story');
  await expect(page.getByRole('heading', { name: 'Book Listing' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pause' })).toBeHidden();
  await context.close();
});

test.describe('accessibility', () => {
  const pages = [
    '/',
    '/lingostory',
    '/lingonovel-story',
    '/ling',
    '/about',
    '/support',
    '/purchase',
    '/login',
    '/signup',
    '/forgot',
    '/subs',
    '/check',
    '/checkout',
  ];
  for (const path of pages) {
    test(`${path} has no axe violations`, async ({ page }) => {
      await page.goto(path);
      const results = await new AxeBuilder({ page }).analyze();
      expect(
        results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      ).toEqual([]);
    });
  }

  test('every public page fits a 320 px screen', async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 800 });
    for (const path of pages) {
      await page.goto(path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect([path, overflow]).toEqual([path, 0]);
    }
  });

  test('a book page has no axe violations and works at 320 px', async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 800 });
    await page.goto('/lingostory');
    await page
      .getByRole('link', { name: /^Cover of / })
      .first()
      .click();
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => v.id)).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
  });
});
