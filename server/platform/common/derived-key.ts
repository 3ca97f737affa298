import { createHmac } from 'node:crypto';

/**
 * A key of its own for each use of JWT_SECRET (device tokens, clip URLs), so that nothing signed for one
 * use can pass for another, even if both carry similar claims.
 */
export function derivedKey(secret: string, label: string): Buffer {
  return createHmac('sha256', secret).update(label).digest();
}
