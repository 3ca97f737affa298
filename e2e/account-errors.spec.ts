/** docs/product.md section 8's messages on the account screens, and their accessibility with errors showing. */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './helpers/fixtures';
import { newAccount, signUpByApi } from './helpers/accounts';
import { escapeRegExp, submitAndRead } from './helpers/page';

const GENERIC_ERROR = 'Something went wrong. Please try again later.';

test.describe('error messages (docs/product.md section 8)', () => {
  test('a wrong password shows the server message', async ({ page, request }) => {
    const account = newAccount('wrong');
    await signUpByApi(request, account);
    await page.goto('/login');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill('not-the-password');
    const login = await submitAndRead(page, 'user/login', () =>
      page.getByRole('button', { name: 'Continue' }).click(),
    );
    expect(login.status).toBe(422);
    await expect(page.getByRole('alert')).toHaveText(login.body.message);
    await expect(page.getByRole('alert')).toBeFocused();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('signup shows the first error of each field under it', async ({ page, request }) => {
    const taken = newAccount('taken');
    await signUpByApi(request, taken);
    await page.goto('/signup');
    await page.getByLabel('Name').fill('Second Person');
    await page.getByLabel('Email').fill(taken.email);
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Repeat password').fill('different');

    const expectFieldErrors = async (errors: Record<string, string[]>, fields: Record<string, string>) => {
      for (const [field, label] of Object.entries(fields)) {
        const input = page.getByLabel(label, { exact: true });
        const first = errors[field]?.[0];
        if (first) {
          await expect(input).toHaveAttribute('aria-invalid', 'true');
          // After the hint, if the field has one.
          await expect(input).toHaveAccessibleDescription(new RegExp(`${escapeRegExp(first)}$`));
        } else {
          await expect(input).not.toHaveAttribute('aria-invalid', 'true');
        }
      }
    };
    const labels = { name: 'Name', email: 'Email', password: 'Password', repeat_password: 'Repeat password' };

    // A short password and a repeat that does not match.
    const first = await submitAndRead(page, 'user/signup', () =>
      page.getByRole('button', { name: 'Submit' }).click(),
    );
    expect(first.status).toBe(422);
    expect(Object.keys(first.body.errors ?? {})).toEqual(
      expect.arrayContaining(['password', 'repeat_password']),
    );
    await expectFieldErrors(first.body.errors ?? {}, labels);
    // The summary takes the focus and links to each field with an error.
    const summary = page.getByRole('alert');
    await expect(summary).toBeFocused();
    await expect(summary.getByRole('link')).toHaveCount(Object.keys(first.body.errors ?? {}).length);
    await summary.getByRole('link', { name: /^Password:/ }).click();
    await expect(page.getByLabel('Password', { exact: true })).toBeFocused();

    // Fixed passwords, but the email is already registered.
    await page.getByLabel('Password', { exact: true }).fill(taken.password);
    await page.getByLabel('Repeat password').fill(taken.password);
    const second = await submitAndRead(page, 'user/signup', () =>
      page.getByRole('button', { name: 'Submit' }).click(),
    );
    expect(second.status).toBe(422);
    expect(Object.keys(second.body.errors ?? {})).toEqual(['email']);
    await expectFieldErrors(second.body.errors ?? {}, labels);
  });

  test('signup shows nothing for other failures', async ({ page }) => {
    await page.route('**/api/v1/user/signup', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"Internal error"}' }),
    );
    const account = newAccount('broken');
    await page.goto('/signup');
    await page.getByLabel('Name').fill(account.name);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByLabel('Repeat password').fill(account.password);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByRole('button', { name: 'Submit' })).toBeEnabled();
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(page.getByRole('status')).toBeEmpty();
  });

  test('an invalid recovery token shows the server message', async ({ page }) => {
    await page.goto('/forgot');
    await page.getByLabel('Email').fill(newAccount('nobody').email);
    await page.getByRole('button', { name: 'Send token' }).click();
    await page.getByLabel('Token').fill('this-is-not-a-real-token');
    const verify = await submitAndRead(page, 'user/verify-password-recovery-token', () =>
      page.getByRole('button', { name: 'Verify token' }).click(),
    );
    expect(verify.status).toBe(422);
    await expect(page.getByRole('alert')).toHaveText(verify.body.message);
    await expect(page.getByRole('heading', { name: /^Step 2 of 3/ })).toBeVisible();
  });

  test('a failing server shows the generic message', async ({ page }) => {
    await page.route('**/api/v1/user/login', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"Internal error"}' }),
    );
    await page.goto('/login');
    await page.getByLabel('Email').fill('someone@example.com');
    await page.getByLabel('Password').fill('whatever-it-is');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('alert')).toHaveText(GENERIC_ERROR);
    await expect(page.getByRole('button', { name: 'Continue' })).toBeEnabled();

    // An unreachable server, in the wizard this time.
    await page.route('**/api/v1/user/password-recovery-token', (route) => route.abort('connectionrefused'));
    await page.goto('/forgot');
    await page.getByLabel('Email').fill('someone@example.com');
    await page.getByRole('button', { name: 'Send token' }).click();
    await expect(page.getByRole('alert')).toHaveText(GENERIC_ERROR);
    await expect(page.getByRole('heading', { name: /^Step 1 of 3/ })).toBeVisible();
  });

  test('too many attempts show the server message', async ({ page }) => {
    const message = 'Too many attempts. Please try again in 15 minutes.';
    await page.route('**/api/v1/user/login', (route) =>
      route.fulfill({
        status: 429,
        contentType: 'application/json',
        headers: { 'Retry-After': '900' },
        body: JSON.stringify({ message }),
      }),
    );
    await page.goto('/login');
    await page.getByLabel('Email').fill('someone@example.com');
    await page.getByLabel('Password').fill('whatever-it-is');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('alert')).toHaveText(message);
  });
});

// One test per page: seven audits in one test came close to its time limit on a loaded two-core machine.
test.describe('the account pages pass an accessibility audit, errors included', () => {
  async function audit(page: Page) {
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
      [],
    );
  }

  test('/login with an error', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Email').fill('nobody@example.com');
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await audit(page);
  });

  test('/signup with field errors', async ({ page }) => {
    await page.goto('/signup');
    await page.getByLabel('Name').fill('Someone');
    await page.getByLabel('Email').fill(newAccount('axe').email);
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Repeat password').fill('other');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await audit(page);
  });

  test('/forgot at step 2', async ({ page }) => {
    await page.goto('/forgot');
    await page.getByLabel('Email').fill('nobody@example.com');
    await page.getByRole('button', { name: 'Send token' }).click();
    await expect(page.getByRole('heading', { name: /^Step 2 of 3/ })).toBeVisible();
    await audit(page);
  });

  for (const path of ['/401', '/about', '/support', '/purchase']) {
    test(path, async ({ page }) => {
      await page.goto(path);
      await audit(page);
    });
  }
});
