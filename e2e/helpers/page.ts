import type { Page } from '@playwright/test';

export const mainMenu = (page: Page) => page.getByRole('navigation', { name: 'Main' });

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export interface ApiAnswer {
  status: number;
  body: { message: string; errors?: Record<string, string[]> };
}

/** Clicks, and answers the status and JSON body of the API call the click makes. */
export async function submitAndRead(
  page: Page,
  path: string,
  click: () => Promise<void>,
): Promise<ApiAnswer> {
  const [response] = await Promise.all([page.waitForResponse(`**/api/v1/${path}`), click()]);
  return { status: response.status(), body: (await response.json()) as ApiAnswer['body'] };
}
