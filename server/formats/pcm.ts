import type { Writable } from 'node:stream';
import type { MediaStore } from '../media/store/media-store';

/** What every clip is decoded to for an audiobook: 16-bit little-endian mono at this rate. */
export const PCM_RATE = 44_100;

/**
 * Decodes a stored clip to PCM (PCM_RATE, mono, s16le) into `out`, honouring back-pressure, without
 * ending it; resolves with the number of samples written. STUB: helper A builds it.
 */
export function decodeToPcm(store: MediaStore, key: string, out: Writable): Promise<number> {
  throw new Error(`not built yet: ${store.kind} ${key} ${String(out.writable)}`);
}
