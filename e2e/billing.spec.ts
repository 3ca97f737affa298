import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { newAccount, signIn, signUpByApi } from './helpers/accounts';
import { setPlan } from './helpers/plans';
import { SCREENS } from './helpers/screens';

const stripeUrl = () => {
  const url = process.env.E2E_STRIPE_URL;
  if (!url) throw new Error('E2E_STRIPE_URL is not set: run the journeys through playwright.config.ts');
  return url;
};

interface StandInCall {
  path: string;
  params: Record<string, string>;
}

test.describe('/checkout', () => {
  test('shows the order placed message after a successful payment', async ({ page }) => {
    await page.goto('/checkout?success=true');
    await expect(page.getByText('Order placed! You will receive an email confirmation.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Checkout' })).toHaveCount(0);
  });

  test('shows the canceled message when the member came back from Stripe', async ({ page }) => {
    await page.goto('/checkout?canceled=true');
    await expect(
      page.getByText("Order canceled -- continue to shop around and checkout when you're ready."),
    ).toBeVisible();
  });

  test('shows the product card otherwise, in the HTML itself', async ({ page, request }) => {
    const html = await (await request.get('/checkout')).text();
    expect(html).toContain('Premium Plus');
    expect(html).toContain('$20.00');
    expect(html).toContain('name="price_id" value="price_e2e_premium_plus"');
    await page.goto('/checkout');
    await expect(page.getByRole('heading', { name: 'Premium Plus' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Checkout' })).toBeEnabled();
  });
});

test('Checkout sends a signed-in member to the Stripe Checkout page', async ({ page, request }) => {
  const account = newAccount('buyer');
  await signUpByApi(request, account);
  await signIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto('/checkout');
  await page.getByRole('button', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(new RegExp(`^${stripeUrl()}/pay/cs_test_\\d+$`));
  const calls = (await (await request.get(`${stripeUrl()}/__calls`)).json()) as StandInCall[];
  const sent = calls.filter((call) => call.path === '/v1/checkout/sessions').at(-1)!;
  expect(sent.params).toEqual(
    expect.objectContaining({
      mode: 'subscription',
      'line_items[0][price]': 'price_e2e_premium_plus',
      customer_email: account.email,
    }),
  );
});

test('Try for $0.00 starts a 30-day trial on Stripe Checkout', async ({ page, request }) => {
  const account = newAccount('trier');
  await signUpByApi(request, account);
  await signIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto('/check');
  await expect(page.getByText('Order total today')).toBeVisible();
  await expect(page.getByText(/collected by Stripe\s+Checkout/)).toBeVisible();
  await expect(page.getByRole('textbox')).toHaveCount(0);
  await page.getByRole('button', { name: 'Try for $0.00' }).click();
  await expect(page).toHaveURL(new RegExp(`^${stripeUrl()}/pay/cs_test_\\d+$`));
  const calls = (await (await request.get(`${stripeUrl()}/__calls`)).json()) as StandInCall[];
  expect(
    calls.filter((call) => call.path === '/v1/checkout/sessions').at(-1)!.params[
      'subscription_data[trial_period_days]'
    ],
  ).toBe('30');
});

const PLAN_PAGES = ['/subs', '/check', '/checkout', '/purchase'];

/** A signed-in member whose plan Stripe's webhooks have set. */
async function memberWithPlan(
  page: Page,
  request: APIRequestContext,
  label: string,
  ...plan: Parameters<typeof setPlan> extends [unknown, unknown, ...infer Rest] ? Rest : never
) {
  const account = newAccount(label);
  const id = await signUpByApi(request, account);
  await setPlan(request, id, ...plan);
  await signIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  return account;
}

const sessionCalls = async (request: APIRequestContext) =>
  ((await (await request.get(`${stripeUrl()}/__calls`)).json()) as StandInCall[]).filter(
    (call) => call.path === '/v1/checkout/sessions',
  );

for (const [screen, layout] of SCREENS)
  test.describe(`on a ${screen}`, () => {
    test.use(layout);

    test("a trialing member's plan pages offer the billing portal, never a second subscription", async ({
      page,
      request,
    }) => {
      test.setTimeout(90_000);
      await memberWithPlan(page, request, 'twice', 'trialing', {
        trialEnd: Math.floor(Date.now() / 1000) + 20 * 86_400,
      });
      const before = (await sessionCalls(request)).length;
      for (const path of PLAN_PAGES) {
        await page.goto(path);
        await expect(page.getByText('You already have Premium Plus.'), path).toBeVisible();
        await expect(
          page.getByText(/You are on the Premium Plus free trial, which ends on/),
          path,
        ).toBeVisible();
        await expect(page.getByRole('heading', { level: 1 }), path).not.toContainText('free for 30 days');
        await expect(
          page.getByRole('link', { name: 'Manage your subscription in the billing portal' }),
        ).toBeVisible();
        for (const name of ['Try for $0.00', 'Checkout', /^Subscribe/])
          await expect(page.getByRole('button', { name }), `${path}: ${String(name)}`).toHaveCount(0);
        for (const name of ['Start your free trial', 'Subscribe now', 'See the plans'])
          await expect(page.getByRole('link', { name }), `${path}: ${name}`).toHaveCount(0);
      }
      await page.getByRole('link', { name: 'Manage your subscription in the billing portal' }).click();
      await expect(page).toHaveURL(new RegExp(`^${stripeUrl()}/portal/cus_e2e_\\d+$`));
      expect((await sessionCalls(request)).length).toBe(before);
    });

    test('a member whose trial ended sees the price and subscribes without a trial', async ({
      page,
      request,
    }) => {
      test.setTimeout(90_000);
      const ended = Math.floor(Date.now() / 1000) - 86_400;
      await memberWithPlan(page, request, 'lapsed', 'canceled', {
        trialEnd: ended,
        periodEnd: ended,
        type: 'customer.subscription.deleted',
      });
      await page.goto('/subs');
      await expect(page.getByText('You have had your free trial.')).toBeVisible();
      await expect(page.getByRole('link', { name: 'Start your free trial' })).toHaveCount(0);
      await expect(page.getByRole('link', { name: 'Subscribe now' })).toHaveAttribute('href', '/checkout');

      await page.goto('/purchase');
      await expect(page.getByText('You have had your free trial.')).toBeVisible();
      await expect(page.getByText('$0.00')).toHaveCount(0);
      await expect(page.getByRole('link', { name: 'Subscribe now' })).toHaveAttribute('href', '/checkout');

      // The lock on chapter 2 offers the plan at its price too, and the way back to the chapter.
      const chapter2 = '/read/der-leuchtturmwarter/2';
      await page.goto(chapter2);
      await expect(page.getByRole('link', { name: 'subscribe for $20.00 a month' })).toHaveAttribute(
        'href',
        `/checkout?next=${encodeURIComponent(chapter2)}`,
      );
      await expect(page.getByRole('link', { name: 'Try for $0.00' })).toHaveCount(0);

      await page.goto('/check');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Subscribe to Premium Plus');
      await expect(page).toHaveTitle('Subscribe to Premium Plus · Lingonovel');
      await expect(page.getByText('You have had your free trial.')).toBeVisible();
      await expect(page.getByText('$0.00')).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Try for $0.00' })).toHaveCount(0);
      await page.getByRole('button', { name: 'Subscribe for $20.00 a month' }).click();
      await expect(page).toHaveURL(new RegExp(`^${stripeUrl()}/pay/cs_test_\\d+$`));
      const sent = (await sessionCalls(request)).at(-1)!;
      expect(sent.params['subscription_data[trial_period_days]']).toBeUndefined();
      expect(sent.params.customer).toMatch(/^cus_e2e_\d+$/);
    });
  });

test('/check has no axe violations for a member whose trial ended', async ({ page, request }) => {
  const ended = Math.floor(Date.now() / 1000) - 86_400;
  await memberWithPlan(page, request, 'axecheck', 'canceled', { trialEnd: ended, periodEnd: ended });
  await page.goto('/check');
  await expect(page.getByRole('button', { name: 'Subscribe for $20.00 a month' })).toBeEnabled();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
});

for (const path of ['/subs', '/purchase', '/checkout']) {
  test(`${path} has no axe violations for a member who has the plan`, async ({ page, request }) => {
    await memberWithPlan(page, request, 'axeplan', 'active');
    await page.goto(path);
    await expect(page.getByText('You already have Premium Plus.')).toBeVisible();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  });
}

test('a member waiting on a failed payment is sent to update the card, not to a second subscription', async ({
  page,
  request,
}) => {
  await memberWithPlan(page, request, 'pastdue', 'past_due');
  await page.goto('/checkout');
  await expect(page.getByText('Your Premium Plus subscription is waiting for a payment.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Update your card in the billing portal' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Checkout' })).toHaveCount(0);
  // The lock on chapter 2 says so too.
  await page.goto('/read/der-leuchtturmwarter/2');
  await expect(page.getByText('your subscription is waiting for a payment')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Update your card' })).toHaveAttribute('href', '/profile');
  await expect(page.getByRole('link', { name: 'Sign in' })).toHaveCount(0);
});

test('a signed-out visitor who presses Checkout signs in first and comes back', async ({ page, request }) => {
  const account = newAccount('returner');
  await signUpByApi(request, account);
  await page.goto('/checkout');
  await page.getByRole('button', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(/\/login\?next=%2Fcheckout$/);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/checkout$/);
  await page.getByRole('button', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(new RegExp(`^${stripeUrl()}/pay/`));
});

test('the dashboard and the profile show the member has no plan yet', async ({ page, request }) => {
  const account = newAccount('planless');
  await signUpByApi(request, account);
  await signIn(page, account.email, account.password);
  await expect(page.getByText('You are on the free plan.')).toBeVisible();
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Your plan' })).toBeVisible();
  await expect(page.getByRole('link', { name: /See Premium Plus/ })).toHaveAttribute('href', '/subs');
});
