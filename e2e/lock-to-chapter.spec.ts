import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './helpers/fixtures';
import { newAccount, signIn, signUpByApi } from './helpers/accounts';
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

      // Stripe's page (the stand-in's): paying sends the member back, with the chapter in the address,
      // before Stripe's webhooks arrive: the page waits for them.
      await page.getByRole('button', { name: 'Pay' }).click();
      await expect(page).toHaveURL(`/checkout?success=true&next=${encodeURIComponent(CHAPTER_2)}`);
      await expect(page.getByText('Order placed! You will receive an email confirmation.')).toBeVisible();
      await expect(page.getByText(/Stripe is confirming your order/)).toBeVisible();
      // Not before the plan is there: the chapter would still be locked.
      await expect(page.getByRole('link', { name: 'Continue reading: chapter 2' })).toHaveCount(0);
      // The way back is in the address, not only in this tab's storage.
      await page.evaluate(() => sessionStorage.clear());
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

test('canceling on Stripe leads back to the chapter too; a next that is not a chapter stays behind', async ({
  page,
  request,
}) => {
  const account = newAccount('cancels');
  await signUpByApi(request, account);
  await signIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto(`/check?next=${encodeURIComponent(CHAPTER_2)}`);
  await page.getByRole('button', { name: 'Try for $0.00' }).click();
  await expect(page).toHaveURL(new RegExp(`^${stripeUrl()}/pay/cs_test_\\d+$`));
  await page.getByRole('link', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(`/checkout?canceled=true&next=${encodeURIComponent(CHAPTER_2)}`);
  await expect(page.getByRole('link', { name: 'Continue reading: chapter 2' })).toHaveAttribute(
    'href',
    CHAPTER_2,
  );

  // Only a chapter goes to Stripe; the checkout itself still works.
  await page.goto(`/check?next=${encodeURIComponent('/dashboard')}`);
  await page.getByRole('button', { name: 'Try for $0.00' }).click();
  await expect(page).toHaveURL(new RegExp(`^${stripeUrl()}/pay/cs_test_\\d+$`));
  await page.getByRole('link', { name: 'Cancel' }).click();
  await expect(page).toHaveURL('/checkout?canceled=true');
});

test('the book page shows the lock only to those it locks', async ({ page, request }) => {
  const contents = page.locator('ol.contents');
  const rows = contents.locator('> li');
  const locks = contents.locator('.lock svg').filter({ visible: true });
  const profiles: string[] = [];
  // The book page's own questions only: the dashboard just left may still be saving the time zone.
  page.on('request', (r) => {
    if (
      new URL(r.url()).pathname === '/api/v1/user/profile' &&
      r.method() === 'GET' &&
      /\/book-detail\//.test(r.frame().url())
    )
      profiles.push(r.url());
  });

  // A member whose plan gives access: no lock at all, from one look at the plan for the whole page.
  const subscriber = newAccount('unlocked');
  await setPlan(request, await signUpByApi(request, subscriber), 'trialing', {
    trialEnd: Math.floor(Date.now() / 1000) + 30 * 86_400,
  });
  await signIn(page, subscriber.email, subscriber.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  profiles.length = 0;
  await page.goto(`/book-detail/${BOOK}`);
  await expect(rows.first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Download the read-along EPUB' })).toBeVisible();
  await expect(locks).toHaveCount(0);
  await expect(contents).toHaveAttribute('data-edition', 'whole');
  expect(profiles).toHaveLength(1);

  // A visitor: the cached page as it is, a lock beside every chapter but the free one.
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  const locked = (await rows.count()) - (await rows.filter({ hasText: 'Free' }).count());
  expect(locked).toBeGreaterThan(0);
  await expect(contents).toHaveAttribute('data-edition', 'visitor');
  await expect(locks).toHaveCount(locked);

  // A member without a plan: still locked for them.
  const member = newAccount('locked-out');
  await signUpByApi(request, member);
  await signIn(page, member.email, member.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/book-detail/${BOOK}`);
  await expect(contents).toHaveAttribute('data-edition', 'sample');
  await expect(locks).toHaveCount(locked);
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
