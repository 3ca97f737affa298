/**
 * <take-away>: the book page's download buttons (site/components/TakeAway.astro). The page is shared by
 * everyone, so it is drawn for a visitor; here, in the browser, the buttons become the whole book's for
 * an administrator or a member whose plan gives access (the server decides again at the download: a
 * wrong guess here only changes a label), and a click asks for a signed link, waits for an audiobook
 * being made, and lets the browser save the file.
 */
import { planGivesAccess } from '../../server/reading/access';
import { api } from './api';
import type { SubscriptionSummary } from './plan';
import { getToken, getUser, UserType } from './session';
import { takeAway, takeAwayError, waitingMessage, type TakeAwayFormat } from './take-away';

const WHOLE_LABEL: Record<TakeAwayFormat, string> = {
  epub: 'Download the read-along EPUB',
  audiobook: 'Download the audiobook (M4B)',
};

/** Whether the one signed in here gets the whole book: the reading rule, on the plan the profile reports. */
async function getsWholeBook(): Promise<boolean> {
  if (!getToken()) return false;
  if (getUser()?.user_type === UserType.Admin) return true;
  const { data } = await api<{ data: { subscription?: SubscriptionSummary } }>('user/profile');
  const plan = data.subscription;
  if (!plan) return false;
  const end = plan.current_period_end ? new Date(plan.current_period_end) : null;
  return planGivesAccess({ status: plan.status, currentPeriodEnd: end }, new Date());
}

class TakeAway extends HTMLElement {
  private busy = false;

  private get book(): string {
    return this.dataset.book ?? '';
  }

  private get message(): HTMLElement {
    return this.querySelector<HTMLElement>('[data-message]')!;
  }

  connectedCallback(): void {
    for (const link of this.querySelectorAll<HTMLAnchorElement>('a[data-format]')) {
      link.addEventListener('click', (event) => {
        const format = link.dataset.format as TakeAwayFormat;
        // A visitor's EPUB is the plain link: the browser saves it as it is.
        if (format === 'epub' && !getToken()) return;
        event.preventDefault();
        if (!this.busy) void this.download(link, format);
      });
    }
    if (getToken()) void this.showEdition();
  }

  private async showEdition(): Promise<void> {
    const whole = await getsWholeBook().catch(() => false);
    const note = this.querySelector<HTMLElement>('[data-note]')!;
    if (!whole) {
      note.textContent = "The sample is the book's free chapter; the whole book comes with Premium Plus.";
      return;
    }
    for (const link of this.querySelectorAll<HTMLAnchorElement>('a[data-format]'))
      link.textContent = WHOLE_LABEL[link.dataset.format as TakeAwayFormat];
    note.hidden = true;
  }

  private say(text: string, error = false): void {
    this.message.textContent = text;
    this.message.classList.toggle('error', error);
  }

  private async download(link: HTMLAnchorElement, format: TakeAwayFormat): Promise<void> {
    this.busy = true;
    link.setAttribute('aria-disabled', 'true');
    this.say(format === 'audiobook' ? 'Preparing your audiobook…' : 'Preparing your EPUB…');
    try {
      await takeAway(this.book, format, { onWait: (seconds) => this.say(waitingMessage(seconds)) });
      this.say('Your download has started.');
    } catch (error) {
      this.say(takeAwayError(error), true);
    } finally {
      this.busy = false;
      link.removeAttribute('aria-disabled');
    }
  }
}

customElements.define('take-away', TakeAway);
