// Does asking for a password reset take longer for an address that has an account? It must not: the
// difference would tell an attacker which addresses are registered (docs/security.md).
const SAMPLES = 40;

let address = 0;
/** Each request from its own client address, so the per-address rate limit never answers instead. */
const headers = () => ({
  'Content-Type': 'application/json',
  'X-Forwarded-For': `10.99.${address >> 8}.${address++ & 255}`,
});

async function timed(base, email) {
  const started = process.hrtime.bigint();
  const res = await fetch(`${base}/api/v1/user/password-recovery-token`, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({ email }),
  });
  await res.text();
  if (res.status !== 200) throw new Error(`recovery answered ${res.status}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const median = (list) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/** Medians of known and unknown addresses, asked in turn (interleaved) so that load affects both alike. */
export async function measureRecoveryTiming(base) {
  const known = [];
  for (let i = 0; i < SAMPLES; i++) {
    const email = `bench-recovery-${Date.now()}-${i}@example.org`;
    const password = 'a bench password 1';
    const res = await fetch(`${base}/api/v1/user/signup`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ name: 'Bench', email, password, repeat_password: password }),
    });
    if (res.status !== 200) throw new Error(`signup answered ${res.status}: ${await res.text()}`);
    known.push(email);
  }
  // A warm-up pair, not counted.
  await timed(base, known[0]);
  await timed(base, 'warm-up@example.org');
  const knownMs = [];
  const unknownMs = [];
  // A pause before each request lets the work a previous one started (token, mail) finish, so it slows
  // neither kind; the order alternates so that neither always goes first.
  const pause = () => new Promise((resolve) => setTimeout(resolve, 30));
  for (let i = 0; i < SAMPLES; i++) {
    const unknown = `nobody-${i}-${Date.now()}@example.org`;
    for (const kind of i % 2 ? ['known', 'unknown'] : ['unknown', 'known']) {
      await pause();
      if (kind === 'known') knownMs.push(await timed(base, known[i]));
      else unknownMs.push(await timed(base, unknown));
    }
  }
  return { samples: SAMPLES, known: median(knownMs), unknown: median(unknownMs) };
}
