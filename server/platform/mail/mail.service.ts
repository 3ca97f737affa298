import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import { APP_CONFIG, type AppConfig } from '../config';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * The only place that sends mail. With SMTP_URL it sends through that server; without it, each message
 * is written as an .eml file under STORAGE_DIR/mail, so a self-hoster can still read reset links.
 */
@Injectable()
export class MailService {
  private readonly logger = new Logger(MailService.name);
  private readonly transport: Transporter;
  private readonly outbox: string | null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    if (config.smtpUrl) {
      this.transport = nodemailer.createTransport(config.smtpUrl);
      this.outbox = null;
    } else {
      this.transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
      this.outbox = join(config.storageDir, 'mail');
    }
  }

  async send(mail: OutgoingMail): Promise<void> {
    const info = await this.transport.sendMail({ from: this.config.mailFrom, ...mail });
    if (!this.outbox) return;
    await mkdir(this.outbox, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = join(this.outbox, `${stamp}-${randomBytes(4).toString('hex')}.eml`);
    // Written under another name, then renamed: whoever watches the outbox (a person, a test) never
    // opens a message half written.
    await writeFile(`${file}.part`, (info as unknown as { message: Buffer }).message, { mode: 0o600 });
    await rename(`${file}.part`, file);
    this.logger.log(`SMTP_URL is not set: wrote "${mail.subject}" to ${file}`);
  }
}
