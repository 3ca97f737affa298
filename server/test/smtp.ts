import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { scaled } from '../../scripts/test-limits.cjs';

export interface CapturedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  from: string;
}

/** A real SMTP server on loopback that keeps every message it receives, parsed as a mail client would. */
export class TestSmtp {
  readonly messages: CapturedMail[] = [];
  private server: SMTPServer;
  port = 0;

  async start(): Promise<string> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, _session, callback) => {
        simpleParser(stream)
          .then((mail: ParsedMail) => {
            const to = Array.isArray(mail.to) ? mail.to[0] : mail.to;
            this.messages.push({
              to: to?.value[0]?.address ?? '',
              from: mail.from?.value[0]?.address ?? '',
              subject: mail.subject ?? '',
              text: mail.text ?? '',
              html: typeof mail.html === 'string' ? mail.html : '',
            });
            callback();
          })
          .catch(callback);
      },
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as { port: number }).port;
    return `smtp://127.0.0.1:${this.port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  to(address: string): CapturedMail[] {
    return this.messages.filter((m) => m.to === address);
  }

  /** Waits until `count` mails for the address have arrived (mail is sent after the API answers). */
  async waitFor(address: string, count = 1, timeoutMs = scaled(30_000)): Promise<CapturedMail> {
    const deadline = Date.now() + timeoutMs;
    while (this.to(address).length < count) {
      if (Date.now() > deadline)
        throw new Error(`expected ${count} mail(s) for ${address}, got ${this.to(address).length}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return this.to(address)[count - 1];
  }
}

/** The token and link of a password reset mail, read from its text part. */
export function resetDetails(mail: CapturedMail): { token: string; link: string } {
  const link = /(https?:\/\/\S+\/resetpassword\?token=\S+)/.exec(mail.text)?.[1];
  const token = link ? decodeURIComponent(new URL(link).searchParams.get('token')!) : undefined;
  if (!link || !token) throw new Error(`no reset link in mail:\n${mail.text}`);
  expect(mail.text.split('\n')).toContain(token);
  return { token, link };
}
