import { DataSource } from 'typeorm';
import { sql } from '../platform/database/sql';
import { SubscriptionConfirmations1763848800000 } from '../platform/migrations/1763848800000-SubscriptionConfirmations';
import { ApiClient, newMember } from './api-client';
import { startServer, type TestServer } from './harness';
import { TestSmtp } from './smtp';
import { StripeStandIn } from './stripe-stand-in';

import { PRICE, stripeEnv, webhooks } from './stripe-webhooks';

interface Profile {
  data: {
    subscription: {
      status: string;
      trial_ends_at: string | null;
      current_period_end: string | null;
      cancel_at_period_end: boolean;
      trial_used: boolean;
      offer: string;
    };
  };
}

describe('Payments on a server without Stripe keys', () => {
  let server: TestServer;
  beforeAll(async () => (server = await startServer()));
  afterAll(() => server.close());

  it('answers 503 to a signed-in member before looking at the request, and 401 to a visitor', async () => {
    const { client } = await newMember(server);
    for (const path of ['user/create-subscription', 'user/start-trial', 'user/billing-portal']) {
      const res = await client.post(path, { price_id: 42, unknown_field: true });
      expect([path, res.status, res.body]).toEqual([
        path,
        503,
        { message: 'Payments are not configured on this server.' },
      ]);
      expect((await new ApiClient(server).post(path, {})).status).toBe(401);
    }
    expect((await new ApiClient(server).post('billing/webhook', {})).status).toBe(503);
  });

  it('shows members with no plan as status none', async () => {
    const { client } = await newMember(server);
    expect((await client.get<Profile>('user/profile')).body.data.subscription).toEqual({
      status: 'none',
      trial_ends_at: null,
      current_period_end: null,
      cancel_at_period_end: false,
      trial_used: false,
      offer: 'trial',
    });
  });
});

describe('Payments through Stripe', () => {
  let server: TestServer;
  const standIn = new StripeStandIn();

  beforeAll(async () => {
    const apiBase = await standIn.start();
    server = await startServer(undefined, stripeEnv(apiBase));
  });
  afterAll(async () => {
    await server.close();
    await standIn.stop();
  });

  const { deliver, event, subscriptionObject } = webhooks(() => server);

  it('creates a Checkout Session for our price only, answering its URL', async () => {
    const { client, id, email } = await newMember(server);
    const before = standIn.sessionCalls().length;
    const res = await client.post<{ url: string }>(
      'user/create-subscription',
      new URLSearchParams({ price_id: PRICE }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ url: `${standIn.url}/pay/cs_test_${before + 1}` });
    const sent = standIn.sessionCalls().at(-1)!;
    expect(sent.authorization).toBe('Bearer sk_test_lingonovel');
    expect(sent.params).toEqual(
      expect.objectContaining({
        mode: 'subscription',
        'line_items[0][price]': PRICE,
        'line_items[0][quantity]': '1',
        success_url: 'https://books.example.org/checkout?success=true',
        cancel_url: 'https://books.example.org/checkout?canceled=true',
        client_reference_id: String(id),
        customer_email: email,
        billing_address_collection: 'required',
      }),
    );
    expect(sent.params['subscription_data[trial_period_days]']).toBeUndefined();

    const alias = await client.post<{ url: string }>('user/create-subscription', { priceId: PRICE });
    expect(alias.status).toBe(200);
  });

  it('never sends an unknown price to Stripe', async () => {
    const { client } = await newMember(server);
    const before = standIn.calls.length;
    const res = await client.post('user/create-subscription', { price_id: 'price_someone_else' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: 'This price is not offered here.',
      errors: { price_id: ['This price is not offered here.'] },
    });
    expect((await client.post('user/create-subscription', {})).body.errors).toEqual({
      price_id: ['The price id field is required.'],
    });
    expect(standIn.calls.length).toBe(before);
  });

  it('carries the chapter the checkout started from to Stripe, both ways back, and nothing else', async () => {
    const { client } = await newMember(server);
    const next = '/read/der-leuchtturmwarter/2';
    const res = await client.post<{ url: string }>('user/start-trial', { price_id: PRICE, next });
    expect(res.status).toBe(200);
    const sent = standIn.sessionCalls().at(-1)!;
    const encoded = encodeURIComponent(next);
    expect(sent.params.success_url).toBe(`https://books.example.org/checkout?success=true&next=${encoded}`);
    expect(sent.params.cancel_url).toBe(`https://books.example.org/checkout?canceled=true&next=${encoded}`);
    // The stand-in's Pay sends the browser back there, as Stripe does after a payment.
    const paid = await fetch(res.body.url, { method: 'POST', redirect: 'manual' });
    expect([paid.status, paid.headers.get('location')]).toEqual([303, sent.params.success_url]);

    const before = standIn.calls.length;
    const message = 'The page to come back to must be a chapter of this site, such as /read/{book}/1.';
    for (const elsewhere of [
      'https://evil.example/read/a/1',
      '//evil.example/read/a/1',
      '/\\evil.example',
      '/read/a/1?x=https://evil.example',
      '/read/../../admin/1',
      '/read/../5',
      '/dashboard',
      42,
    ])
      for (const path of ['user/start-trial', 'user/create-subscription']) {
        const refused = await client.post(path, { price_id: PRICE, next: elsewhere });
        expect([path, elsewhere, refused.status, refused.body]).toEqual([
          path,
          elsewhere,
          422,
          { message, errors: { next: [message] } },
        ]);
      }
    expect(standIn.calls.length).toBe(before);
  });

  it('redirects a plain form post to Checkout with a 303', async () => {
    const { client } = await newMember(server);
    const res = await fetch(`${server.baseUrl}/api/v1/user/create-subscription`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        Authorization: `Bearer ${(client as unknown as { token: string }).token}`,
        Accept: 'text/html,application/xhtml+xml',
        'Content-Type': 'application/x-www-form-urlencoded',
        'X-Forwarded-For': client.ip,
      },
      body: `price_id=${PRICE}`,
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(new RegExp(`^${standIn.url}/pay/cs_test_\\d+$`));
  });

  it('starts a 30-day trial once, and reuses the Stripe customer afterwards', async () => {
    const { client, id } = await newMember(server);
    const trial = await client.post<{ url: string }>('user/start-trial', {});
    expect(trial.status).toBe(200);
    const sent = standIn.sessionCalls().at(-1)!;
    expect(sent.params['subscription_data[trial_period_days]']).toBe('30');
    expect(sent.params['line_items[0][price]']).toBe(PRICE);

    const customer = `cus_trial_${id}`;
    expect(
      (
        await deliver(
          event('checkout.session.completed', {
            id: 'cs_x',
            object: 'checkout.session',
            client_reference_id: String(id),
            customer,
            subscription: `sub_${customer}`,
          }),
        )
      ).status,
    ).toBe(200);
    const trialEnd = Math.floor(Date.now() / 1000) + 30 * 86_400;
    await deliver(
      event(
        'customer.subscription.created',
        subscriptionObject(customer, id, { status: 'trialing', trial_end: trialEnd }),
      ),
    );

    const profile = (await client.get<Profile>('user/profile')).body.data.subscription;
    expect(profile).toEqual({
      status: 'trialing',
      trial_ends_at: new Date(trialEnd * 1000).toISOString(),
      current_period_end: new Date(1_800_000_000 * 1000).toISOString(),
      cancel_at_period_end: false,
      trial_used: true,
      offer: 'manage',
    });

    const portal = await client.post<{ url: string }>('user/billing-portal');
    expect(portal.body).toEqual({ url: `${standIn.url}/portal/${customer}` });
    expect(standIn.calls.at(-1)!.params.return_url).toBe('https://books.example.org/profile');

    // The trial ends without a card: Stripe ends the subscription. The trial is used up, and Checkout
    // subscribes the same Stripe customer, without a second trial.
    const ended = Math.floor(Date.now() / 1000) - 60;
    await deliver(
      event(
        'customer.subscription.deleted',
        subscriptionObject(customer, id, {
          status: 'canceled',
          trial_end: ended,
          items: { object: 'list', data: [{ id: 'si_1', current_period_end: ended }] },
        }),
      ),
    );
    // The plan pages now offer the price, not the trial.
    expect((await client.get<Profile>('user/profile')).body.data.subscription).toMatchObject({
      status: 'canceled',
      trial_used: true,
      offer: 'subscribe',
    });
    const again = await client.post('user/start-trial', {});
    expect(again.status).toBe(422);
    expect(again.body).toEqual({ message: 'You have already had your free trial.' });

    const paid = await client.post('user/create-subscription', { price_id: PRICE });
    expect(paid.status).toBe(200);
    const reused = standIn.sessionCalls().at(-1)!;
    expect(reused.params.customer).toBe(customer);
    expect(reused.params.customer_email).toBeUndefined();
    expect(reused.params['subscription_data[trial_period_days]']).toBeUndefined();
  });

  it.each([
    ['on the free trial', { status: 'trialing', trial_end: Math.floor(Date.now() / 1000) + 86_400 }],
    ['with an active plan', { status: 'active' }],
    ['whose canceled plan has time left', { status: 'canceled' }],
  ])(
    'never starts a second subscription for a member %s: 409 with a link to the billing portal',
    async (_, fields) => {
      const { client, id } = await newMember(server);
      const customer = `cus_second_${id}`;
      await deliver(event('customer.subscription.updated', subscriptionObject(customer, id, { ...fields })));
      // The plan pages offer the billing portal instead of a button that would be refused.
      expect((await client.get<Profile>('user/profile')).body.data.subscription.offer).toBe('manage');
      const before = standIn.sessionCalls().length;
      for (const path of ['user/create-subscription', 'user/start-trial']) {
        const res = await client.post(path, { price_id: PRICE });
        expect([path, res.status, res.body]).toEqual([
          path,
          409,
          {
            message: 'You already have Premium Plus. To change or cancel it, open the billing portal.',
            portal_url: `${standIn.url}/portal/${customer}`,
          },
        ]);
      }
      expect(standIn.sessionCalls().length).toBe(before);
    },
  );

  it.each(['past_due', 'unpaid', 'incomplete', 'paused'])(
    'sends a member whose subscription is %s to the billing portal instead of a second subscription',
    async (status) => {
      const { client, id } = await newMember(server);
      const customer = `cus_${status}_${id}`;
      await deliver(event('customer.subscription.updated', subscriptionObject(customer, id, { status })));
      expect((await client.get<Profile>('user/profile')).body.data.subscription.offer).toBe('manage');
      const before = standIn.sessionCalls().length;
      const res = await client.post('user/create-subscription', { price_id: PRICE });
      expect([res.status, res.body]).toEqual([
        409,
        {
          message:
            'Your Premium Plus subscription is waiting for a payment. Update your card in the billing portal instead of starting a second subscription.',
          portal_url: `${standIn.url}/portal/${customer}`,
        },
      ]);
      expect(standIn.sessionCalls().length).toBe(before);
    },
  );

  it('refuses the second subscription even when no portal link can be made', async () => {
    const { client, id } = await newMember(server);
    await deliver(
      event('customer.subscription.created', {
        ...subscriptionObject('unused', id, { status: 'active' }),
        customer: null,
      }),
    );
    const res = await client.post('user/create-subscription', { price_id: PRICE });
    expect(res.status).toBe(409);
    expect(res.body).toEqual(expect.objectContaining({ portal_url: null }));
  });

  it('subscribes a member whose plan no longer gives access (a past period), without a trial', async () => {
    const { client, id } = await newMember(server);
    const ended = Math.floor(Date.now() / 1000) - 86_400;
    await deliver(
      event(
        'customer.subscription.deleted',
        subscriptionObject(`cus_over_${id}`, id, {
          status: 'canceled',
          items: { object: 'list', data: [{ id: 'si_1', current_period_end: ended }] },
        }),
      ),
    );
    expect((await client.get<Profile>('user/profile')).body.data.subscription.offer).toBe('trial');
    const res = await client.post<{ url: string }>('user/create-subscription', { price_id: PRICE });
    expect(res.status).toBe(200);
    expect(standIn.sessionCalls().at(-1)!.params).toEqual(
      expect.objectContaining({ customer: `cus_over_${id}` }),
    );
  });

  it('has no billing portal for a member who never subscribed', async () => {
    const { client } = await newMember(server);
    const res = await client.post('user/billing-portal');
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: 'You have no subscription to manage yet.' });
  });

  it('follows a subscription through active, past due, cancel at period end and deleted', async () => {
    const { client, id } = await newMember(server);
    const customer = `cus_life_${id}`;
    await deliver(
      event('checkout.session.completed', {
        id: 'cs_y',
        object: 'checkout.session',
        client_reference_id: String(id),
        customer,
        subscription: `sub_${customer}`,
      }),
    );
    const status = async () => (await client.get<Profile>('user/profile')).body.data.subscription;

    await deliver(
      event('customer.subscription.created', subscriptionObject(customer, id, { status: 'active' })),
    );
    expect(await status()).toEqual(
      expect.objectContaining({ status: 'active', cancel_at_period_end: false }),
    );
    await deliver(
      event('customer.subscription.updated', subscriptionObject(customer, id, { status: 'past_due' })),
    );
    expect((await status()).status).toBe('past_due');
    await deliver(
      event(
        'customer.subscription.updated',
        subscriptionObject(customer, id, { status: 'active', cancel_at_period_end: true }),
      ),
    );
    expect(await status()).toEqual(expect.objectContaining({ status: 'active', cancel_at_period_end: true }));
    await deliver(
      event('customer.subscription.deleted', subscriptionObject(customer, id, { status: 'canceled' })),
    );
    expect((await status()).status).toBe('canceled');
  });

  it('refuses bad and stale signatures and changes nothing', async () => {
    const { client, id } = await newMember(server);
    const created = event(
      'customer.subscription.created',
      subscriptionObject(`cus_sig_${id}`, id, { status: 'active' }),
    );
    const forged = await deliver(created, { secret: 'whsec_not_ours' });
    expect(forged.status).toBe(400);
    expect(forged.body).toEqual({ message: 'The webhook signature is not valid.' });
    const stale = await deliver(created, { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 });
    expect(stale.status).toBe(400);
    const unsigned = await new ApiClient(server).post('billing/webhook', created);
    expect(unsigned.status).toBe(400);
    expect((await client.get<Profile>('user/profile')).body.data.subscription.status).toBe('none');
    const stored = await sql<Array<{ n: number }>>(
      server.app.get(DataSource),
      'SELECT COUNT(*) AS n FROM stripe_events WHERE id = ?',
      [created.id],
    );
    expect(stored[0].n).toBe(0);
  });

  it('handles a repeated delivery once: a replayed old event does not undo a newer one', async () => {
    const { client, id } = await newMember(server);
    const customer = `cus_dup_${id}`;
    const active = event(
      'customer.subscription.created',
      subscriptionObject(customer, id, { status: 'active' }),
    );
    expect((await deliver(active)).body).toEqual({ received: true, duplicate: false });
    await deliver(
      event('customer.subscription.updated', subscriptionObject(customer, id, { status: 'past_due' })),
    );
    const replay = await deliver(active);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ received: true, duplicate: true });
    expect((await client.get<Profile>('user/profile')).body.data.subscription.status).toBe('past_due');
  });

  it('takes a checkout and its subscription arriving at once for a new member, both applied', async () => {
    const { client, id } = await newMember(server);
    const customer = `cus_pair_${id}`;
    const answers = await Promise.all([
      deliver(
        event('checkout.session.completed', {
          id: `cs_pair_${id}`,
          object: 'checkout.session',
          client_reference_id: String(id),
          customer,
          subscription: `sub_${customer}`,
        }),
      ),
      deliver(event('customer.subscription.created', subscriptionObject(customer, id, { status: 'active' }))),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect((await client.get<Profile>('user/profile')).body.data.subscription.status).toBe('active');
  });

  it('handles concurrent deliveries of one event exactly once', async () => {
    const { id } = await newMember(server);
    const same = event(
      'customer.subscription.created',
      subscriptionObject(`cus_conc_${id}`, id, { status: 'active' }),
    );
    const answers = await Promise.all([deliver(same), deliver(same), deliver(same)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.filter((a) => (a.body as { duplicate: boolean }).duplicate === false)).toHaveLength(1);
    const stored = await sql<Array<{ n: number }>>(
      server.app.get(DataSource),
      'SELECT COUNT(*) AS n FROM stripe_events WHERE id = ?',
      [same.id],
    );
    expect(stored[0].n).toBe(1);
  });
});

describe('The confirmation mail of a new subscription', () => {
  let server: TestServer;
  const standIn = new StripeStandIn();
  const smtp = new TestSmtp();

  beforeAll(async () => {
    const [apiBase, smtpUrl] = await Promise.all([standIn.start(), smtp.start()]);
    server = await startServer(undefined, { ...stripeEnv(apiBase), SMTP_URL: smtpUrl });
  });
  afterAll(async () => {
    await server.close();
    await Promise.all([standIn.stop(), smtp.stop()]);
  });

  const { deliver, event, subscriptionObject } = webhooks(() => server);
  /** Lets mail that would be sent arrive, so that "no second mail" means something. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

  it('goes out through the mail server when a trial starts, once, whatever Stripe repeats', async () => {
    const { client, id, email } = await newMember(server, 'Tia Trial');
    expect((await client.put('user/profile', { time_zone: 'Europe/Paris' })).status).toBe(200);
    const customer = `cus_mail_${id}`;
    // 23:30 UTC on 12 March is 00:30 on the 13th in Paris: the mail says the member's day.
    const trialEnd = Date.UTC(2031, 2, 12, 23, 30) / 1000;
    const created = event(
      'customer.subscription.created',
      subscriptionObject(customer, id, { status: 'trialing', trial_end: trialEnd }),
    );
    expect((await deliver(created)).status).toBe(200);
    const mail = await smtp.waitFor(email);
    expect(mail.subject).toBe('Your Premium Plus free trial has started');
    expect(mail.text).toContain('Hello Tia Trial,');
    expect(mail.text).toContain('Your 30-day free trial of Premium Plus has started');
    expect(mail.text).toContain(
      'The trial ends on March 13, 2031. Your first payment is due on that day, unless you cancel before then.',
    );
    expect(mail.text).toContain('https://books.example.org/profile');
    expect(mail.html).toContain('<a href="https://books.example.org/profile">');

    // The same event again, a later update of the same subscription, and the trial turning into a paid
    // plan: the subscription was confirmed already.
    await deliver(created);
    await deliver(
      event(
        'customer.subscription.updated',
        subscriptionObject(customer, id, {
          status: 'trialing',
          trial_end: trialEnd,
          cancel_at_period_end: true,
        }),
      ),
    );
    await deliver(
      event('customer.subscription.updated', subscriptionObject(customer, id, { status: 'active' })),
    );
    await settle();
    expect(smtp.to(email)).toHaveLength(1);
  });

  it('confirms a paid subscription when Stripe first says it is active, and a later new one again', async () => {
    const { id, email } = await newMember(server, 'Pat Paid');
    const customer = `cus_paid_${id}`;
    // Checkout's first payment: the subscription is incomplete until the card goes through.
    await deliver(
      event('customer.subscription.created', subscriptionObject(customer, id, { status: 'incomplete' })),
    );
    await settle();
    expect(smtp.to(email)).toHaveLength(0);
    const concurrent = event(
      'customer.subscription.updated',
      subscriptionObject(customer, id, { status: 'active' }),
    );
    const other = event(
      'customer.subscription.updated',
      subscriptionObject(customer, id, { status: 'active' }),
    );
    expect((await Promise.all([deliver(concurrent), deliver(other)])).map((r) => r.status)).toEqual([
      200, 200,
    ]);
    const mail = await smtp.waitFor(email);
    expect(mail.subject).toBe('Your Premium Plus subscription has started');
    expect(mail.text).toContain('It renews on January 15, 2027.');
    await settle();
    expect(smtp.to(email)).toHaveLength(1);

    // Canceled, then a new subscription some day: a new confirmation.
    await deliver(
      event('customer.subscription.deleted', subscriptionObject(customer, id, { status: 'canceled' })),
    );
    await deliver(
      event('customer.subscription.created', {
        ...subscriptionObject(customer, id, { status: 'active' }),
        id: `sub_again_${id}`,
      }),
    );
    await smtp.waitFor(email, 2);
  });

  it('greets no subscription that started before the confirmations existed', async () => {
    const { id, email } = await newMember(server, 'Old Timer');
    const customer = `cus_old_${id}`;
    await deliver(
      event('customer.subscription.created', subscriptionObject(customer, id, { status: 'active' })),
    );
    await smtp.waitFor(email);
    // The installation as it was before the migration, then migrated: the running subscription counts as
    // confirmed, so its renewal sends nothing.
    const runner = server.app.get(DataSource).createQueryRunner();
    try {
      const migration = new SubscriptionConfirmations1763848800000();
      await migration.down(runner);
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    await deliver(
      event(
        'customer.subscription.updated',
        subscriptionObject(customer, id, {
          status: 'active',
          items: { object: 'list', data: [{ id: 'si_1', current_period_end: 1_900_000_000 }] },
        }),
      ),
    );
    await settle();
    expect(smtp.to(email)).toHaveLength(1);
  });
});
