import { expect, test, type Page } from '@playwright/test';
import { newAccount, signUpByApi } from './helpers/accounts';
import { mainMenu } from './helpers/page';

/** Collects what the page's Content-Security-Policy refused. */
function cspViolations(page: Page): string[] {
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
  });
  return refused;
}

test.describe('Return addresses after sign-in', () => {
  for (const next of ['/..//evil.example', '/.//evil.example']) {
    test(`a hostile next=${next} lands on the member's own dashboard`, async ({ page, request, baseURL }) => {
      const account = newAccount('redirect');
      await signUpByApi(request, account);
      await page.goto(`/login?next=${encodeURIComponent(next)}`);
      await page.getByLabel('Email').fill(account.email);
      await page.getByLabel('Password', { exact: true }).fill(account.password);
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page).toHaveURL(`${baseURL}/dashboard`);
    });
  }
});

test.describe('Content-Security-Policy on pages', () => {
  test('runs our scripts (header, slider, islands) and refuses nothing of ours', async ({
    page,
    request,
  }) => {
    const refused = cspViolations(page);
    const response = await page.goto('/lingostory');
    const scriptSrc = /script-src [^;]*/.exec(response!.headers()['content-security-policy'])![0];
    expect(scriptSrc).toMatch(/^script-src 'self'( 'sha256-[\w+/=]+')+$/);
    await expect(page.locator('cover-slider.is-enhanced')).toBeVisible();

    // An island (the sign-in form) hydrates and works; the header's inline script shows the signed-in menu.
    const account = newAccount('csp');
    await signUpByApi(request, account);
    await page.goto('/login');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(mainMenu(page).getByRole('button', { name: 'Logout' })).toBeVisible();
    // The guest-only guard (inline, in <head>) sends a signed-in member away from /login.
    await page.goto('/login');
    await expect(page).toHaveURL(/\/dashboard$/);
    expect(refused).toEqual([]);
  });

  test('refuses an injected inline script and onerror handler', async ({ page }) => {
    const refused = cspViolations(page);
    // As if stored content had slipped markup into the page: the served HTML itself carries the payload.
    await page.route('**/lingostory', async (route) => {
      const original = await route.fetch();
      const html = (await original.text()).replace(
        '</main>',
        '<script>window.__injected = "script"</script><img src="/nothing.png" onerror="window.__handler = true"></main>',
      );
      await route.fulfill({ response: original, body: html });
    });
    await page.goto('/lingostory');
    await expect(page.locator('cover-slider.is-enhanced')).toBeVisible();
    // And one added by script at run time.
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__added = true';
      document.body.append(script);
    });
    await expect.poll(() => refused.length).toBeGreaterThanOrEqual(3);
    expect(
      await page.evaluate(() => [
        (window as { __injected?: string }).__injected,
        (window as { __handler?: boolean }).__handler,
        (window as { __added?: boolean }).__added,
      ]),
    ).toEqual([undefined, undefined, undefined]);
  });
});
