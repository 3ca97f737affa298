import { expect, test } from '@playwright/test';

test('the API description renders at /api/docs under its own CSP, listing the routes', async ({ page }) => {
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
  });
  await page.goto('/api/docs');
  await expect(page.getByRole('heading', { name: /Lingonovel API/ })).toBeVisible();
  await expect(page.getByText('/api/v1/guest/list-book').first()).toBeVisible();
  await expect(page.getByText('/api/v1/admin/phrase').first()).toBeVisible();
  expect(refused).toEqual([]);
});
