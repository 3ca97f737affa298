import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser, type AddressObject } from 'mailparser';
import { scaled } from '../../scripts/test-limits.cjs';

export interface CapturedMail {
  subject: string;
  text: string;
  /** The recovery token, from the line that holds it alone (step 2 of the wizard). */
  token: string;
  /** The mailed link to /resetpassword?token=…, as a mail client would show it. */
  link: string;
}

/** The folder the demo server writes mail to when SMTP_URL is unset (playwright.config.ts sets it up). */
function outbox(): string {
  const storage = process.env.E2E_STORAGE_DIR;
  if (!storage) throw new Error('E2E_STORAGE_DIR is not set: run the journeys through playwright.config.ts');
  return join(storage, 'mail');
}

function recipients(field: AddressObject | AddressObject[] | undefined): string[] {
  const list = Array.isArray(field) ? field : field ? [field] : [];
  return list.flatMap((group) => group.value.map((address) => address.address?.toLowerCase() ?? ''));
}

async function newestMailFor(address: string): Promise<CapturedMail | null> {
  let files: string[];
  try {
    files = (await readdir(outbox())).filter((name) => name.endsWith('.eml'));
  } catch {
    return null;
  }
  const dated = await Promise.all(
    files.map(async (name) => ({
      path: join(outbox(), name),
      mtime: (await stat(join(outbox(), name))).mtimeMs,
    })),
  );
  dated.sort((a, b) => b.mtime - a.mtime);
  for (const { path } of dated) {
    const mail = await simpleParser(await readFile(path));
    if (!recipients(mail.to).includes(address.toLowerCase())) continue;
    const text = mail.text ?? '';
    const token = text.match(/^\s*([A-Za-z0-9_-]{32,})\s*$/m)?.[1];
    const link = text.match(/https?:\/\/\S+\/resetpassword\?token=\S+/)?.[0];
    if (!token || !link) throw new Error(`The mail to ${address} carries no token or no link:\n${text}`);
    return { subject: mail.subject ?? '', text, token, link };
  }
  return null;
}

/** The newest mail sent to `address`, waiting a little for it: the server may write it just after answering. */
export async function latestMailTo(address: string, timeoutMs = scaled(30_000)): Promise<CapturedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = await newestMailFor(address);
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`No mail to ${address} in ${outbox()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
