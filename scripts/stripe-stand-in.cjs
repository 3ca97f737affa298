// A small stand-in for the parts of Stripe's API that Lingonovel calls, on loopback. The real stripe
// library talks to it through STRIPE_API_BASE. It records every call (GET /__calls lists them) and serves
// the "hosted" Checkout and Billing Portal pages a browser is sent to. Its Checkout page has "Pay", which
// sends the browser to the session's success_url as Stripe does (303, {CHECKOUT_SESSION_ID} filled in),
// and "Cancel", its cancel_url. It sends no webhook: the tests do (e2e/helpers/plans.ts). Used by the
// tests; handy for trying payments locally: node scripts/stripe-stand-in.cjs --port 12111
'use strict';
const http = require('node:http');

class StripeStandIn {
  constructor() {
    this.calls = [];
    this.url = '';
    this.sessions = 0;
    /** Each Checkout Session's way back, by id: { success_url, cancel_url }. */
    this.returns = new Map();
    this.server = http.createServer((req, res) => this.handle(req, res));
  }

  handle(req, res) {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const path = (req.url || '').split('?')[0];
      if (req.method === 'GET' && path === '/__calls') return this.json(res, 200, this.calls);
      const paying = /^\/pay\/([^/]+)$/.exec(path);
      if (paying && req.method === 'GET') return this.checkoutPage(res, paying[1]);
      if (paying && req.method === 'POST') return this.pay(res, paying[1]);
      if (req.method === 'GET' && /^\/portal\//.test(path)) return this.page(res, path);
      const params = Object.fromEntries(new URLSearchParams(body));
      this.calls.push({ method: req.method, path, params, authorization: req.headers.authorization });
      if (req.method === 'POST' && path === '/v1/checkout/sessions') {
        const id = `cs_test_${++this.sessions}`;
        this.returns.set(id, { success_url: params.success_url, cancel_url: params.cancel_url });
        return this.json(res, 200, {
          id,
          object: 'checkout.session',
          url: `${this.url}/pay/${id}`,
          mode: 'subscription',
        });
      }
      if (req.method === 'POST' && path === '/v1/billing_portal/sessions') {
        return this.json(res, 200, {
          id: 'bps_test_1',
          object: 'billing_portal.session',
          url: `${this.url}/portal/${params.customer}`,
        });
      }
      return this.json(res, 404, {
        error: {
          type: 'invalid_request_error',
          message: `Unrecognized request URL (${req.method}: ${path})`,
        },
      });
    });
  }

  json(res, status, body) {
    res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': `req_${this.calls.length}` });
    res.end(JSON.stringify(body));
  }

  page(res, path) {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="en"><title>Stripe stand-in</title><h1>Stripe stand-in</h1><p>${path}</p></html>`,
    );
  }

  /** The hosted Checkout page: the card is never asked for, Pay goes straight back as a payment would. */
  checkoutPage(res, id) {
    const session = this.returns.get(id);
    if (!session) return this.html(res, 404, '<h1>Stripe stand-in</h1><p>No such Checkout Session.</p>');
    this.html(
      res,
      200,
      `<h1>Stripe stand-in</h1><p>Checkout Session ${escapeHtml(id)}</p>` +
        `<form method="post" action="/pay/${escapeHtml(id)}"><button type="submit">Pay</button></form>` +
        `<p><a href="${escapeHtml(session.cancel_url)}">Cancel</a></p>`,
    );
  }

  pay(res, id) {
    const session = this.returns.get(id);
    if (!session) return this.html(res, 404, '<h1>Stripe stand-in</h1><p>No such Checkout Session.</p>');
    res.writeHead(303, { Location: session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', id) });
    res.end();
  }

  html(res, status, body) {
    res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><title>Stripe stand-in</title><main>${body}</main></html>`);
  }

  start(port = 0) {
    return new Promise((resolve) =>
      this.server.listen(port, '127.0.0.1', () => {
        this.url = `http://127.0.0.1:${this.server.address().port}`;
        resolve(this.url);
      }),
    );
  }

  stop() {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  sessionCalls() {
    return this.calls.filter((call) => call.path === '/v1/checkout/sessions');
  }
}

const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

module.exports = { StripeStandIn };

if (require.main === module) {
  const index = process.argv.indexOf('--port');
  const port = index > 0 ? Number(process.argv[index + 1]) : 12111;
  new StripeStandIn().start(port).then((url) => console.log(`Stripe stand-in listening on ${url}`));
}
