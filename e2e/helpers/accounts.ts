import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

export interface Account {
  name: string;
  email: string;
  password: string;
}

let counter = 0;

/** A fresh account for one journey: unique per run and per call, so journeys never share state. */
export function newAccount(label: string): Account {
  counter += 1;
  const stamp = `${Date.now()}-${counter}`;
  return {
    name: `${label[0].toUpperCase()}${label.slice(1)} Tester`,
    email: `${label}-${stamp}@example.com`,
    password: `Pass-${stamp}!x`,
  };
}

/** The demo administrator that `--demo` creates (playwright.config.ts starts the server that way). */
export function demoAdmin(): { email: string; password: string } {
  const storage = process.env.E2E_STORAGE_DIR;
  if (!storage) throw new Error('E2E_STORAGE_DIR is not set: run the journeys through playwright.config.ts');
  return JSON.parse(readFileSync(join(storage, 'demo-admin.json'), 'utf8')) as {
    email: string;
    password: string;
  };
}

/** Sets an account up through the API, for journeys that are not about signing up; answers its id. */
export async function signUpByApi(request: APIRequestContext, account: Account): Promise<number> {
  const response = await request.post('/api/v1/user/signup', {
    data: { ...account, repeat_password: account.password },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { user: { id: number } }).user.id;
}

/** Signs in through the form, as a person would. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Continue' }).click();
}
