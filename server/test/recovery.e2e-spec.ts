import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { simpleParser } from 'mailparser';
import { DataSource } from 'typeorm';
import { ApiClient, newMember } from './api-client';
import { controlClock, MINUTE } from './clock';
import { startServer, type TestServer } from './harness';
import { resetDetails, TestSmtp } from './smtp';
import { PasswordRecoveryService } from '../accounts/auth/password-recovery.service';
import { sql } from '../platform/database/sql';
import { scaled } from '../../scripts/test-limits.cjs';

const SENT =
  'If an account exists for that email address, we have sent it a password reset token. It expires in 30 minutes.';
const INVALID = 'This password reset token is invalid or has expired.';

describe('Password recovery by email', () => {
  let server: TestServer;
  const smtp = new TestSmtp();

  beforeAll(async () => {
    const smtpUrl = await smtp.start();
    server = await startServer(undefined, {
      SMTP_URL: smtpUrl,
      PUBLIC_URL: 'https://books.example.org',
      MAIL_FROM: 'Lingonovel <hello@books.example.org>',
    });
  });
  afterAll(async () => {
    await server.close();
    await smtp.stop();
  });

  const anonymous = () => new ApiClient(server);
  const requestToken = (email: string, client = anonymous()) =>
    client.get(`user/password-recovery-token?email=${encodeURIComponent(email)}`);

  it('answers the same for known and unknown addresses, and mails only the known one', async () => {
    const { email } = await newMember(server, 'Hana');
    const unknown = await requestToken('nobody@example.org');
    const known = await requestToken(email);
    expect(unknown.status).toBe(200);
    expect(known.status).toBe(200);
    expect(unknown.text).toBe(known.text);
    expect(known.body).toEqual({ message: SENT });

    const mail = await smtp.waitFor(email);
    expect(mail.subject).toBe('Reset your Lingonovel password');
    expect(mail.from).toBe('hello@books.example.org');
    expect(mail.text).toContain('Hello Hana,');
    expect(smtp.to('nobody@example.org')).toHaveLength(0);
  });

  it('mails a 256-bit token and a link on PUBLIC_URL, never on the request Host', async () => {
    const { email } = await newMember(server);
    await anonymous().post('user/password-recovery-token', { email }, { Host: 'evil.example' });
    const { token, link } = resetDetails(await smtp.waitFor(email));
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(32);
    expect(link).toBe(`https://books.example.org/resetpassword?token=${token}`);

    const stored = await server.app
      .get(DataSource)
      .query<Array<{ token_hash: string }>>('SELECT token_hash FROM password_reset_tokens');
    expect(stored.map((row) => row.token_hash)).toContain(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it('verifies a token, resets the password once, and ends older sessions', async () => {
    const { client, email, password } = await newMember(server);
    await requestToken(email);
    const { token } = resetDetails(await smtp.waitFor(email));

    const verified = await anonymous().get(`user/verify-password-recovery-token?verification_token=${token}`);
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ message: 'The token is valid. You can now choose a new password.' });

    const mismatch = await anonymous().post('user/reset-password-using-token', {
      verification_token: token,
      password: 'brand new pass',
      confirm_password: 'different',
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.message).toBe('The password confirmation does not match.');

    const query = new URLSearchParams({
      password: 'brand new pass',
      confirm_password: 'brand new pass',
      verification_token: token,
    });
    const reset = await anonymous().get(`user/reset-password-using-token?${query.toString()}`);
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({
      message: 'Your password has been reset. You can now sign in with your new password.',
    });

    expect((await client.get('user/profile')).status).toBe(401);
    expect((await anonymous().post('user/login', { email, password })).status).toBe(422);
    expect((await anonymous().post('user/login', { email, password: 'brand new pass' })).status).toBe(200);

    const again = await anonymous().post('user/reset-password-using-token', {
      verification_token: token,
      password: 'another pass 1',
      confirm_password: 'another pass 1',
    });
    expect(again.status).toBe(422);
    expect(again.body).toEqual({ message: INVALID });
    expect(
      (await anonymous().post('user/verify-password-recovery-token', { verification_token: token })).body,
    ).toEqual({ message: INVALID });
  });

  it('kills every outstanding token of the account after a reset', async () => {
    const { email } = await newMember(server);
    await requestToken(email);
    await requestToken(email);
    const first = resetDetails(await smtp.waitFor(email, 1)).token;
    const second = resetDetails(await smtp.waitFor(email, 2)).token;
    const body = { password: 'fresh password', confirm_password: 'fresh password' };
    expect(
      (await anonymous().post('user/reset-password-using-token', { ...body, verification_token: second }))
        .status,
    ).toBe(200);
    expect(
      (await anonymous().post('user/reset-password-using-token', { ...body, verification_token: first }))
        .body,
    ).toEqual({ message: INVALID });
  });

  it('rejects an unknown or malformed token with a 422 message', async () => {
    for (const token of ['x', 'A'.repeat(43), '']) {
      const res = await anonymous().post('user/verify-password-recovery-token', {
        verification_token: token,
      });
      expect(res.status).toBe(422);
      expect(typeof res.body.message).toBe('string');
    }
    // A token is compared, never stored: a control character makes it a wrong token, not a field problem.
    const token = 'A\u0001'.repeat(20);
    const password = { password: 'fresh password', confirm_password: 'fresh password' };
    for (const [path, body] of [
      ['user/verify-password-recovery-token', { verification_token: token }],
      ['user/reset-password-using-token', { verification_token: token, ...password }],
    ] as const) {
      const res = await anonymous().post(path, body);
      expect([path, res.status, res.body]).toEqual([path, 422, { message: INVALID }]);
    }
  });

  it('lets a token expire after 30 minutes', async () => {
    const clock = controlClock(server);
    try {
      const { email } = await newMember(server);
      await requestToken(email);
      const { token } = resetDetails(await smtp.waitFor(email));
      clock.advance(29 * MINUTE);
      expect(
        (await anonymous().post('user/verify-password-recovery-token', { verification_token: token })).status,
      ).toBe(200);
      clock.advance(2 * MINUTE);
      const expired = await anonymous().post('user/verify-password-recovery-token', {
        verification_token: token,
      });
      expect(expired.status).toBe(422);
      expect(expired.body).toEqual({ message: INVALID });
    } finally {
      clock.restore();
    }
  });

  it('sends at most 3 mails per account per hour, answering the same each time', async () => {
    const clock = controlClock(server);
    try {
      const { email } = await newMember(server);
      for (let i = 0; i < 5; i++) expect((await requestToken(email)).body).toEqual({ message: SENT });
      await smtp.waitFor(email, 3);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(smtp.to(email)).toHaveLength(3);
      clock.advance(61 * MINUTE);
      await requestToken(email);
      await smtp.waitFor(email, 4);
    } finally {
      clock.restore();
    }
  });

  it('sends exactly 3 mails to requests for one account sent all at once', async () => {
    const { email } = await newMember(server);
    const answers = await Promise.all(Array.from({ length: 8 }, () => requestToken(email)));
    expect(answers.map((res) => res.body)).toEqual(Array(8).fill({ message: SENT }));
    // The quota is decided when the token is stored: wait for every request's work, then count.
    await server.app.get(PasswordRecoveryService).onModuleDestroy();
    const [{ n }] = await sql<Array<{ n: number | string }>>(
      server.app.get(DataSource),
      'SELECT COUNT(*) AS n FROM password_reset_tokens t JOIN users u ON u.id = t.user_id WHERE u.email = ?',
      [email],
    );
    expect(Number(n)).toBe(3);
    await smtp.waitFor(email, 3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.to(email)).toHaveLength(3);
  });

  it('refuses a malformed email with a 422 message', async () => {
    const res = await requestToken('not-an-email');
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('The email must be a valid email address.');
  });
});

describe('Mail without SMTP_URL', () => {
  it('writes the message as an .eml file under STORAGE_DIR/mail', async () => {
    const server = await startServer();
    try {
      const { email } = await newMember(server, 'Ines');
      await new ApiClient(server).post('user/password-recovery-token', { email });
      const outbox = join(server.storageDir, 'mail');
      const deadline = Date.now() + scaled(30_000);
      let files: string[] = [];
      while (Date.now() < deadline && files.length === 0) {
        files = (() => {
          try {
            return readdirSync(outbox).filter((f) => f.endsWith('.eml'));
          } catch {
            return [];
          }
        })();
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(files).toHaveLength(1);
      const mail = await simpleParser(readFileSync(join(outbox, files[0])));
      expect(mail.subject).toBe('Reset your Lingonovel password');
      expect(mail.text).toContain(`${server.config.publicUrl}/resetpassword?token=`);
    } finally {
      await server.close();
    }
  });
});
