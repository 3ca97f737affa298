import { escapeHtml as escape } from './html';
import type { OutgoingMail } from './mail.service';

/** The recovery mail: the token for step 2 of the wizard, and a link that opens it at step 3. */
export function passwordResetMail(
  to: string,
  name: string,
  token: string,
  publicUrl: string,
  minutes: number,
): OutgoingMail {
  const link = `${publicUrl}/resetpassword?token=${encodeURIComponent(token)}`;
  const text = [
    `Hello ${name},`,
    '',
    'Someone (hopefully you) asked to reset the password of your Lingonovel account.',
    '',
    'Open this link to choose a new password:',
    link,
    '',
    'Or paste this token into the "Forgot password" page:',
    token,
    '',
    `The token works once and expires in ${minutes} minutes. If you did not ask for it, ignore this mail: your password stays as it is.`,
  ].join('\n');
  const html = `<p>Hello ${escape(name)},</p>
<p>Someone (hopefully you) asked to reset the password of your Lingonovel account.</p>
<p><a href="${escape(link)}">Choose a new password</a></p>
<p>Or paste this token into the “Forgot password” page:</p>
<p><code>${escape(token)}</code></p>
<p>The token works once and expires in ${minutes} minutes. If you did not ask for it, ignore this mail: your password stays as it is.</p>`;
  return { to, subject: 'Reset your Lingonovel password', text, html };
}
