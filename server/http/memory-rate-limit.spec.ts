import { clientKey, MemoryWindow } from './memory-rate-limit';

describe(MemoryWindow.name, () => {
  it('lets `limit` hits through per key and window, then says how long to wait', () => {
    const window = new MemoryWindow(3, 60_000);
    expect([0, 1, 2].map((ms) => window.hit('a', 1_000 + ms))).toEqual([0, 0, 0]);
    expect(window.hit('a', 11_000)).toBe(50_000);
    expect(window.hit('b', 11_000)).toBe(0);
    expect(window.hit('a', 60_999)).toBe(1);
    expect(window.hit('a', 61_000)).toBe(0);
  });

  it('forgets closed windows, and holds no more than its most keys', () => {
    const window = new MemoryWindow(1, 1_000, 3);
    for (const key of ['a', 'b', 'c', 'd']) window.hit(key, 0);
    // The oldest window made room for the newest.
    expect(window.size).toBe(3);
    expect(window.hit('a', 10)).toBe(0);
    expect(window.hit('d', 10)).toBe(990);
    window.hit('e', 5_000);
    expect(window.size).toBe(1);
  });
});

describe('clientKey', () => {
  it('counts an IPv4 address as it is, and an IPv6 one by its /64', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey(undefined)).toBe('unknown');
  });
});
