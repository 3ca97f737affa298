import { expect, test } from '@playwright/test';
import { newAccount, signIn, signUpByApi } from './helpers/accounts';
import { setPlan } from './helpers/plans';

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

test('Checkout tells a member on the trial that they already have the plan, and sends nobody to Stripe', async ({
  page,
  request,
}) => {
  const account = newAccount('twice');
  await signUpByApi(request, account);
  const login = await request.post('/api/v1/user/login', {
    data: { email: account.email, password: account.password },
  });
  await setPlan(request, ((await login.json()) as { user: { id: number } }).user.id, 'trialing');
  await signIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/dashboard$/);

  const before = ((await (await request.get(`${stripeUrl()}/__calls`)).json()) as StandInCall[]).length;
  await page.goto('/checkout');
  await page.getByRole('button', { name: 'Checkout' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'You already have Premium Plus. To change or cancel it, open the billing portal.',
  );
  await expect(page.getByRole('link', { name: 'Manage your subscription on your profile' })).toHaveAttribute(
    'href',
    '/profile',
  );
  await expect(page).toHaveURL(/\/checkout$/);
  const calls = (await (await request.get(`${stripeUrl()}/__calls`)).json()) as StandInCall[];
  expect(calls.slice(before).filter((call) => call.path === '/v1/checkout/sessions')).toEqual([]);
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
