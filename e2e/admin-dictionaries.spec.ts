import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './helpers/fixtures';
import { adminApi, adminSession, uniqueTitle, useSession, type Session } from './helpers/admin';

/**
 * Issue 33, /admin/dictionaries (docs/dictionaries-admin.md): an administrator imports Debian's FreeDict
 * Spanish-English through the form, sees it listed with its entries and FreeDict's attribution, is told
 * which file and line of a broken TSV is wrong, replaces and deletes it, and uploads a list of word forms.
 */

const DICTD = '/usr/share/dictd/freedict-spa-eng';
/** A language no other journey gives word forms to, so that this one's cleanup touches only its own. */
const FORMS_LANG = 'gl';

interface Dictionary {
  id: number;
  name: string;
  entries: number;
  format: string;
  attribution?: string | null;
}
interface FormSet {
  lang: string;
  origin: string;
  forms: number;
  lemmas: number;
}

let session: Session;
const name = uniqueTitle('FreeDict Spanish');

const dictionaries = async (request: APIRequestContext) =>
  (await adminApi<{ data: Dictionary[] }>(request, session, 'GET', 'admin/dictionary')).body.data;
const ours = async (request: APIRequestContext) =>
  (await dictionaries(request)).find((item) => item.name === name);

const tsv = (file: string, text: string) => ({
  name: file,
  mimeType: 'text/tab-separated-values',
  buffer: Buffer.from(text),
});

async function audit(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test.beforeAll(async ({ request }) => {
  session = await adminSession(request);
});

// What the journey made goes, whatever step it stopped at.
test.afterAll(async ({ request }) => {
  const remove = (path: string) =>
    request.delete(`/api/v1/${path}`, { headers: { Authorization: `Bearer ${session.token}` } });
  const left = await ours(request);
  if (left) await remove(`admin/dictionary/${left.id}`);
  const sets = await adminApi<{ data?: FormSet[] }>(request, session, 'GET', 'admin/word-forms');
  for (const set of (sets.body.data ?? []).filter((item) => item.lang === FORMS_LANG))
    await remove(`admin/word-forms/${set.lang}/${set.origin}`);
});

test.beforeEach(async ({ page }) => {
  await useSession(page, session);
});

test('the dashboard links to the dictionaries', async ({ page }) => {
  await page.goto('/admin/dashboard');
  await page.getByRole('main').getByRole('link', { name: 'Dictionaries' }).click();
  await expect(page).toHaveURL(/\/admin\/dictionaries$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dictionaries' })).toBeVisible();
});

test('import FreeDict through the form, see it listed, a broken file named by its line, replace, delete', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto('/admin/dictionaries');
  const table = page.getByRole('table', { name: 'Dictionaries' });
  await expect(page.getByText(/^(Checking your access|Loading)/)).toHaveCount(0);

  // Import: Debian's two files, the languages, a name; licence and attribution come from the files.
  const form = page.getByRole('region', { name: 'Import a dictionary', exact: true });
  await form.getByLabel('Dictionary files').setInputFiles([`${DICTD}.index`, `${DICTD}.dict.dz`]);
  await expect(form.getByRole('list', { name: 'Chosen files' })).toContainText('freedict-spa-eng.dict.dz');
  await form.getByLabel('Language of the headwords').fill('es');
  await form.getByLabel('Language of the definitions').fill('en');
  await form.getByLabel('Name (optional)').fill(name);
  await form.getByRole('button', { name: 'Import the dictionary' }).click();
  const row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name }) });
  await expect(row).toBeVisible({ timeout: 60_000 });
  await expect(form.getByRole('status')).not.toBeEmpty();

  const imported = await ours(page.request);
  expect(imported, 'the import is listed by the API').toBeTruthy();
  expect(imported!.entries).toBeGreaterThan(1000);
  await expect(row).toContainText(imported!.entries.toLocaleString('en-US'));
  await expect(row).toContainText('Spanish to English');
  await expect(row).toContainText('dictd');
  await expect(row).toContainText(/FreeDict/i);
  await audit(page);

  // A broken TSV: refused, the file and its line named under the files field; nothing is added.
  await page.reload();
  // Line 3 is not UTF-8 (a Latin-1 "ñ"): the parsers refuse it rather than guess.
  await form.getByLabel('Dictionary files').setInputFiles({
    name: 'broken.tsv',
    mimeType: 'text/tab-separated-values',
    buffer: Buffer.concat([
      Buffer.from('casa\thouse\nperro\tdog\nni'),
      Buffer.from([0xf1]),
      Buffer.from('o\tchild\n'),
    ]),
  });
  await form.getByLabel('Language of the headwords').fill('es');
  await form.getByRole('button', { name: 'Import the dictionary' }).click();
  const fileError = form.locator('#dictionary-files-error');
  await expect(fileError).toContainText('broken.tsv');
  await expect(fileError).toContainText(/line 3\b/);
  await expect(form.getByRole('alert')).toBeVisible();
  await expect(form.getByLabel('Dictionary files')).toHaveAttribute('aria-invalid', 'true');
  expect((await dictionaries(page.request)).filter((item) => item.format === 'tsv')).toEqual([]);

  // Replace: new files take the place of the entries; the row stays, with the new count and format.
  await row.getByRole('button', { name: `Replace ${name}` }).click();
  const replace = page.getByRole('region', { name: `Replace “${name}”` });
  await expect(replace.getByRole('heading')).toBeFocused();
  await replace
    .getByLabel('New files')
    .setInputFiles(tsv('small.tsv', 'casa\thouse\tn\nperro\tdog\tn\ngato\tcat\tn\n'));
  await replace.getByRole('button', { name: 'Replace the entries' }).click();
  await expect(row.getByRole('cell').nth(1)).toHaveText('3');
  await expect(replace.getByRole('status')).not.toBeEmpty();
  await expect(row).toContainText('TSV');
  expect((await ours(page.request))!.entries).toBe(3);
  await replace.getByRole('button', { name: 'Close' }).click();
  await expect(replace).toHaveCount(0);
  // The focus is back on the row's Replace button.
  await expect(row.getByRole('button', { name: `Replace ${name}` })).toBeFocused();

  // Delete, after a confirmation.
  await row.getByRole('button', { name: `Delete ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Delete “${name}”?` });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Delete dictionary' }).click();
  await expect(row).toHaveCount(0);
  expect(await ours(page.request)).toBeUndefined();
});

test('upload a list of word forms, see its counts, delete it', async ({ page }) => {
  await page.goto('/admin/dictionaries');
  const panel = page.getByRole('region', { name: 'Word forms', exact: true });
  await expect(page.getByText(/^(Checking your access|Loading)/)).toHaveCount(0);
  await panel
    .getByLabel('Word form files')
    .setInputFiles(tsv('irregular.tsv', 'foi\tser\nfoi\tir\nson\tser\n'));
  await panel.getByLabel('Language', { exact: true }).fill(FORMS_LANG);
  await panel.getByRole('button', { name: 'Upload word forms' }).click();
  const row = panel.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /^Galician/ }) });
  await expect(row).toBeVisible();
  await expect(panel.getByRole('status').filter({ hasText: /\S/ })).toBeVisible();

  const sets = (await adminApi<{ data: FormSet[] }>(page.request, session, 'GET', 'admin/word-forms')).body
    .data;
  const set = sets.find((item) => item.lang === FORMS_LANG);
  expect(set, 'the upload is listed by the API').toBeTruthy();
  await expect(row).toContainText(set!.forms.toLocaleString('en-US'));
  await expect(row).toContainText(set!.lemmas.toLocaleString('en-US'));
  await audit(page);

  await row.getByRole('button', { name: /^Delete the word forms of Galician/ }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete word forms' }).click();
  await expect(row).toHaveCount(0);
});
