// The sitemap at the bench's catalogue size: every file's size, and how far the server's resident memory
// grows while it writes them (sampled from /proc every 10 ms; Linux only, as the import timing).
import { readFileSync } from 'node:fs';

function rss(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) * 1024;
}

/** Fetches /sitemap.xml and every part it lists, `rounds` times over; sizes and the peak RSS growth. */
export async function measureSitemap(base, pid, rounds = 3) {
  const files = [];
  let growth = 0;
  for (let round = 0; round < rounds; round++) {
    const before = rss(pid);
    let peak = before;
    const timer = setInterval(() => (peak = Math.max(peak, rss(pid))), 10);
    try {
      const queue = ['/sitemap.xml'];
      while (queue.length) {
        const path = queue.shift();
        const started = process.hrtime.bigint();
        const res = await fetch(base + path);
        const body = Buffer.from(await res.arrayBuffer());
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
        const text = body.toString('utf8');
        const parts = [...text.matchAll(/<sitemap><loc>[^<]*?(\/sitemap-\d+\.xml)<\/loc>/g)].map((m) => m[1]);
        queue.push(...parts);
        if (round === 0)
          files.push({
            path,
            bytes: body.length,
            urls: (text.match(/<url>/g) ?? []).length,
            index: parts.length > 0,
            ms,
          });
      }
    } finally {
      clearInterval(timer);
    }
    growth = Math.max(growth, Math.max(peak, rss(pid)) - before);
  }
  return { files, growth };
}
