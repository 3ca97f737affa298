import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './helpers/fixtures';
import { newAccount } from './helpers/accounts';
import { setPlan } from './helpers/plans';
import { mainMenu } from './helpers/page';
import { SCREENS } from './helpers/screens';

/** From the lock on chapter 2 to reading it: sign-up, the trial's checkout, and the way back. */

const BOOK = 'der-leuchtturmwarter';
const CHAPTER_2 = `/read/${BOOK}/2`;

const stripeUrl = () => {
  const url = process.env.E2E_STRIPE_URL;
  if (!url) throw new Error('E2E_STRIPE_URL is not set: run the journeys through playwright.config.ts');
  return url;
};

for (const [screen, layout] of SCREENS)
  test.describe(`on a ${screen}`, () => {
    test.use(layout);

    test('sign-up from the lock on chapter 2 ends signed in on chapter 2, and the trial leads back to it', async ({
      page,
      request,
    }) => {
      test.setTimeout(120_000);
      await page.goto(CHAPTER_2);
      // The header's Login and Signup come back here too.
      for (const [name, path] of [
        ['Login', 'login'],
        ['Signup', 'signup'],
      ])
        await expect(mainMenu(page).getByRole('link', { name, exact: true })).toHaveAttribute(
          'href',
          `/${path}?next=${encodeURIComponent(CHAPTER_2)}`,
        );
      await page.getByRole('link', { name: 'create an account' }).click();
      await expect(page).toHaveURL(`/signup?next=${encodeURIComponent(CHAPTER_2)}`);
      // Sign In, one click away, keeps the way back too.
      await expect(page.getByRole('link', { name: 'Already have an account? Sign in' })).toHaveAttribute(
        'href',
        `/login?next=${encodeURIComponent(CHAPTER_2)}`,
      );

      const account = newAccount('locked');
      await page.getByLabel('Name').fill(account.name);
      await page.getByLabel('Email').fill(account.email);
      await page.getByLabel('Password', { exact: true }).fill(account.password);
      await page.getByLabel('Repeat password').fill(account.password);
      await page.getByRole('button', { name: 'Submit' }).click();

      // Signed in, back on chapter 2, which now offers the trial (no sign-in by hand).
      await expect(page).toHaveURL(CHAPTER_2);
      // On a phone, Logout is behind the header's menu button (docs/reader.md, "Header").
      if (screen === 'phone') await mainMenu(page).getByRole('button', { name: 'Menu' }).click();
      await expect(mainMenu(page).getByRole('button', { name: 'Logout' })).toBeVisible();
      expect(
        await page.evaluate(() => !!localStorage.getItem('token') && !!localStorage.getItem('device_token')),
      ).toBe(true);
      await expect(page.getByText('Start your free 30-day trial to read on.')).toBeVisible();

      // The trial's checkout carries the chapter to Stripe and back.
      await page.getByRole('link', { name: 'Try for $0.00' }).click();
      await expect(page).toHaveURL(`/check?next=${encodeURIComponent(CHAPTER_2)}`);
      await page.getByRole('button', { name: 'Try for $0.00' }).click();
      await expect(page).toHaveURL(new RegExp(`^${stripeUrl()}/pay/cs_test_\\d+$`));

      // Stripe sends the member back before its webhooks arrive: the page waits for them.
      await page.goto('/checkout?success=true');
      await expect(page.getByText('Order placed! You will receive an email confirmation.')).toBeVisible();
      await expect(page.getByText(/Stripe is confirming your order/)).toBeVisible();
      const me = (
        await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}') as { id: number })
      ).id;
      const trialEnd = Math.floor(Date.now() / 1000) + 30 * 86_400;
      await setPlan(request, me, 'trialing', { trialEnd, type: 'customer.subscription.created' });

      const ends = new Date(trialEnd * 1000).toLocaleDateString('en-US', { dateStyle: 'long' });
      await expect(page.getByText('Your free trial of Premium Plus has started.')).toBeVisible({
        timeout: 15_000,
      });
      await expect(
        page.getByText(`Your trial ends on ${ends}, and your first payment of $20.00 is due on that day`),
      ).toBeVisible();
      const back = page.getByRole('link', { name: 'Continue reading: chapter 2' });
      await expect(back).toHaveAttribute('href', CHAPTER_2);
      expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

      await back.click();
      await expect(page).toHaveURL(CHAPTER_2);
      await expect(page.locator('li[data-audio]').first()).toBeVisible();
    });
  });

test('a next that leaves the site is not followed after sign-up', async ({ page }) => {
  const account = newAccount('elsewhere');
  await page.goto('/signup?next=//evil.example/steal');
  await page.getByLabel('Name').fill(account.name);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByLabel('Repeat password').fill(account.password);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('/signup with a next has no axe violations', async ({ page }) => {
  await page.goto(`/signup?next=${encodeURIComponent(CHAPTER_2)}`);
  await expect(page.getByRole('button', { name: 'Submit' })).toBeEnabled();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
});

for (const path of [`/login?next=${encodeURIComponent(CHAPTER_2)}`, '/checkout?canceled=true'])
  test(`${path} has no axe violations`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  });
