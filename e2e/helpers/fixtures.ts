import { test as base, expect } from '@playwright/test';

/**
 * Playwright's test, failing any journey whose pages log an error or throw (a hydration mismatch, a broken
 * island). Chromium's own "Failed to load resource" lines are expected: journeys provoke 4xx and 5xx.
 */
export const test = base.extend<{ browserErrors: string[] }>({
  browserErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
          errors.push(message.text());
        }
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await use(errors);
      expect(errors, 'errors in the browser console').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
