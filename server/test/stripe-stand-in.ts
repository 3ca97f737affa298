/** The Stripe stand-in lives in scripts/ so that Playwright's web server and these tests share one. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const standIn = require('../../scripts/stripe-stand-in.cjs') as {
  StripeStandIn: new () => StripeStandIn;
};

export interface RecordedCall {
  method: string;
  path: string;
  params: Record<string, string>;
  authorization: string | undefined;
}

export interface StripeStandIn {
  readonly calls: RecordedCall[];
  url: string;
  start(port?: number): Promise<string>;
  stop(): Promise<void>;
  sessionCalls(): RecordedCall[];
}

export const StripeStandIn = standIn.StripeStandIn;
