import http from 'node:http';

export interface RecordedCall {
  method: string;
  path: string;
  params: Record<string, string>;
  authorization: string | undefined;
}

/**
 * A small HTTP stand-in for Stripe's API on loopback. The real stripe library talks to it (through
 * STRIPE_API_BASE); it records what it was sent and answers like Stripe would for the calls we make.
 */
export class StripeStandIn {
  readonly calls: RecordedCall[] = [];
  private server: http.Server;
  url = '';
  private sessions = 0;

  async start(): Promise<string> {
    this.server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const path = (req.url ?? '').split('?')[0];
        const params = Object.fromEntries(new URLSearchParams(body));
        this.calls.push({ method: req.method ?? '', path, params, authorization: req.headers.authorization });
        res.setHeader('Content-Type', 'application/json');
        res.setHeader('Request-Id', `req_${this.calls.length}`);
        if (req.method === 'POST' && path === '/v1/checkout/sessions') {
          const id = `cs_test_${++this.sessions}`;
          res.end(
            JSON.stringify({
              id,
              object: 'checkout.session',
              url: `${this.url}/pay/${id}`,
              mode: 'subscription',
            }),
          );
        } else if (req.method === 'POST' && path === '/v1/billing_portal/sessions') {
          res.end(
            JSON.stringify({
              id: 'bps_test_1',
              object: 'billing_portal.session',
              url: `${this.url}/portal/${params.customer}`,
            }),
          );
        } else {
          res.statusCode = 404;
          res.end(
            JSON.stringify({
              error: {
                type: 'invalid_request_error',
                message: `Unrecognized request URL (${req.method}: ${path})`,
              },
            }),
          );
        }
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
    return this.url;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  sessionCalls(): RecordedCall[] {
    return this.calls.filter((call) => call.path === '/v1/checkout/sessions');
  }
}
