import { expect, test } from './helpers/fixtures';
import { demoAdmin, newAccount, signIn, signUpByApi } from './helpers/accounts';
import { latestMailTo } from './helpers/mail';
import { mainMenu, submitAndRead } from './helpers/page';

test.describe('signing up, in and out', () => {
  test('a visitor signs up, signs in, sees the dashboard and logs out', async ({ page }) => {
    const account = newAccount('member');
    await page.goto('/');
    await mainMenu(page).getByRole('link', { name: 'Signup' }).click();
    await expect(page).toHaveURL(/\/signup$/);

    await page.getByLabel('Name').fill(account.name);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByLabel('Repeat password').fill(account.password);
    await expect(page.getByLabel('Password', { exact: true })).toHaveAccessibleDescription(
      'Use 8 or more characters with letters, numbers and symbols.',
    );
    const [signup] = await Promise.all([
      page.waitForResponse('**/api/v1/user/signup'),
      page.getByRole('button', { name: 'Submit' }).click(),
    ]);
    expect(signup.status()).toBe(200);
    // Signed in by the sign-up itself: straight to the dashboard.
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: `Welcome, ${account.name}` })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Browse books' })).toHaveAttribute('href', '/lingostory');
    await expect(mainMenu(page).getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await expect(mainMenu(page).getByRole('link', { name: 'Books', exact: true })).toBeVisible();
    await expect(mainMenu(page).getByRole('link', { name: 'My books' })).toHaveAttribute(
      'href',
      '/dashboard#continue-reading',
    );
    await expect(mainMenu(page).getByRole('link', { name: 'Login' })).toBeHidden();

    await mainMenu(page).getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(mainMenu(page).getByRole('link', { name: 'Login' })).toBeVisible();
    await expect(mainMenu(page).getByRole('link', { name: 'Signup' })).toBeVisible();
    await expect(mainMenu(page).getByRole('button', { name: 'Logout' })).toBeHidden();
    expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('user')])).toEqual([
      null,
      null,
    ]);

    // And back in with the same account.
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('sign-in returns to the page that asked for it, never to another site', async ({ page, request }) => {
    const account = newAccount('next');
    await signUpByApi(request, account);

    await page.goto('/profile');
    await expect(page).toHaveURL(/\/login\?next=%2Fprofile$/);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/profile$/);

    await mainMenu(page).getByRole('button', { name: 'Logout' }).click();
    await page.goto('/login?next=//evil.example/steal');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('the demo administrator lands on the admin dashboard', async ({ page }) => {
    const admin = demoAdmin();
    await signIn(page, admin.email, admin.password);
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
    await expect(mainMenu(page).getByRole('link', { name: 'Dashboard' })).toHaveAttribute(
      'href',
      '/admin/dashboard',
    );
    // The public-page guard sends an administrator to their own home, too.
    await page.goto('/login');
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
  });

  test('a member changes name and password on the profile page', async ({ page, request }) => {
    const account = newAccount('profile');
    await signUpByApi(request, account);
    await signIn(page, account.email, account.password);
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.getByRole('link', { name: 'Your profile' }).click();

    const summary = page.getByRole('region', { name: 'Account' });
    await expect(summary).toContainText(account.email);
    await expect(summary).toContainText('Member since');

    const nameForm = page.getByRole('region', { name: 'Change your name' });
    await nameForm.getByLabel('Name').fill('Renamed Member');
    await nameForm.getByRole('button', { name: 'Save name' }).click();
    await expect(nameForm.getByRole('status')).not.toBeEmpty();
    await expect(summary).toContainText('Renamed Member');

    const newPassword = `${account.password}-new`;
    const passwordForm = page.getByRole('region', { name: 'Change your password' });
    await passwordForm.getByLabel('Current password').fill(account.password);
    await passwordForm.getByLabel('New password', { exact: true }).fill(newPassword);
    await passwordForm.getByLabel('Confirm new password').fill(newPassword);
    await passwordForm.getByRole('button', { name: 'Change password' }).click();
    await expect(passwordForm.getByRole('status')).not.toBeEmpty();

    // The old token stopped working; the page kept the new one, so the profile still loads.
    await page.reload();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole('region', { name: 'Account' })).toContainText('Renamed Member');

    await mainMenu(page).getByRole('button', { name: 'Logout' }).click();
    await signIn(page, account.email, newPassword);
    await expect(page.getByRole('heading', { name: 'Welcome, Renamed Member' })).toBeVisible();
  });

  test('a session the server no longer accepts is signed out', async ({ page }) => {
    await page.goto('/');
    await page.evaluate(() => {
      localStorage.setItem('token', 'not-a-valid-token');
      localStorage.setItem(
        'user',
        JSON.stringify({ id: 1, name: 'Ghost', email: 'ghost@example.com', user_type: 2, user_role_id: 2 }),
      );
    });
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/login\?next=%2Fprofile$/);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await expect(mainMenu(page).getByRole('link', { name: 'Login' })).toBeVisible();
  });
});

test.describe('password recovery', () => {
  test('the wizard resets a password with the token from the mail', async ({ page, request }) => {
    const account = newAccount('forgot');
    await signUpByApi(request, account);

    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect(page).toHaveURL(/\/forgot$/);
    await page.getByLabel('Email').fill(account.email);
    const requested = await submitAndRead(page, 'user/password-recovery-token', () =>
      page.getByRole('button', { name: 'Send token' }).click(),
    );
    expect(requested.status).toBe(200);
    await expect(page.getByRole('heading', { name: /^Step 2 of 3/ })).toBeFocused();
    await expect(page.getByRole('status')).toContainText(requested.body.message);

    const mail = await latestMailTo(account.email);
    await page.getByLabel('Token').fill(mail.token);
    await page.getByRole('button', { name: 'Verify token' }).click();
    await expect(page.getByRole('heading', { name: /^Step 3 of 3/ })).toBeVisible();

    const newPassword = `${account.password}-reset`;
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password').fill(newPassword);
    const reset = await submitAndRead(page, 'user/reset-password-using-token', () =>
      page.getByRole('button', { name: 'Reset password' }).click(),
    );
    expect(reset.status).toBe(200);
    await expect(page.getByRole('status')).toContainText(reset.body.message);

    await page.getByRole('link', { name: 'Sign in with your new password' }).click();
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(newPassword);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: `Welcome, ${account.name}` })).toBeVisible();
  });

  test('the mailed link opens the wizard at step 3', async ({ page, request, baseURL }) => {
    const account = newAccount('link');
    await signUpByApi(request, account);
    const asked = await request.post('/api/v1/user/password-recovery-token', {
      data: { email: account.email },
    });
    expect(asked.status()).toBe(200);

    const mail = await latestMailTo(account.email);
    expect(mail.link.startsWith(`${baseURL}/resetpassword?token=`)).toBe(true);
    await page.goto(mail.link);
    await expect(page.getByRole('heading', { name: /^Step 3 of 3/ })).toBeVisible();
    // The token left the address bar as soon as it was read.
    await expect(page).toHaveURL(/\/resetpassword$/);

    const newPassword = `${account.password}-link`;
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Reset password' }).click();
    await expect(page.getByRole('link', { name: 'Sign in with your new password' })).toBeVisible();

    await signIn(page, account.email, newPassword);
    await expect(page).toHaveURL(/\/dashboard$/);

    // The link works once: opened again, it lands at step 2 with the server's message.
    await mainMenu(page).getByRole('button', { name: 'Logout' }).click();
    await page.goto(mail.link);
    await expect(page.getByRole('heading', { name: /^Step 2 of 3/ })).toBeVisible();
    await expect(page.getByRole('alert')).not.toBeEmpty();
    await expect(page.getByLabel('Token')).toHaveValue(mail.token);
  });

  test('/resetpassword without a token starts at step 1', async ({ page }) => {
    await page.goto('/resetpassword');
    await expect(page.getByRole('heading', { name: /^Step 1 of 3/ })).toBeVisible();
    await expect(page.getByLabel('Email')).toBeVisible();
  });
});

test.describe('guards', () => {
  test('a member who opens the admin area is sent to /401', async ({ page, request }) => {
    const account = newAccount('guard');
    await signUpByApi(request, account);
    await signIn(page, account.email, account.password);
    await expect(page).toHaveURL(/\/dashboard$/);

    await page.goto('/admin/dashboard');
    await expect(page).toHaveURL(/\/401$/);
    await expect(page.getByRole('heading', { name: 'This area is for administrators' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toHaveCount(0);

    await page.getByRole('button', { name: 'Sign in as someone else' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Continue' })).toBeVisible();
  });

  test('signed-out visitors are kept out of the member and admin areas', async ({ page }) => {
    await page.goto('/admin/dashboard');
    await expect(page).toHaveURL(/\/401$/);
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/$/);
  });

  test('a signed-in member visiting the sign-in pages goes to the dashboard', async ({ page, request }) => {
    const account = newAccount('public');
    await signUpByApi(request, account);
    await signIn(page, account.email, account.password);
    await expect(page).toHaveURL(/\/dashboard$/);

    for (const path of ['/login', '/signup', '/forgot']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/dashboard$/);
    }
  });
});
