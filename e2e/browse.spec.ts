import { expect, test } from '@playwright/test';

test('a visitor browses from the home page to a book', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'Browse' }).click();

  await expect(page).toHaveURL(/\/books$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Audio books' })).toBeVisible();
  // The covers are decorative in their cards (the title beside each names the book).
  const covers = page.getByRole('main').locator('img');
  expect(await covers.count()).toBeGreaterThanOrEqual(6);
  // Every cover really loaded (not a broken image).
  await expect
    .poll(() =>
      covers.evaluateAll((imgs) => (imgs as HTMLImageElement[]).slice(0, 3).map((img) => img.naturalWidth)),
    )
    .not.toContain(0);

  const firstLink = page.getByRole('heading', { level: 3 }).first().getByRole('link');
  const title = (await firstLink.getAttribute('href'))!;
  await firstLink.click();
  await expect(page).toHaveURL(new RegExp(`${title}$`));
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link')).toHaveAttribute(
    'href',
    '/lingostory',
  );
  await expect(page.getByRole('heading', { level: 1 })).not.toBeEmpty();
  await expect(page.locator('audio')).toHaveAttribute('src', /^\/media\/samples\//);
});

test('an unknown page answers the 404 page', async ({ page }) => {
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
});
