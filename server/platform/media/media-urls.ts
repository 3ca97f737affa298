import type { SignedLinks } from '../common/signed-links';

/** Public URLs of stored media. Root-relative, so they work whatever host name a visitor used. */
export const MEDIA_ROUTE = '/media';
export const COVER_WIDTHS = [320, 640, 960] as const;
export type CoverWidth = (typeof COVER_WIDTHS)[number];
/** Covers are cropped to the 2:3 shape of a book, so every size has a known height (no layout shift). */
export const COVER_RATIO = 1.5;

export function mediaUrl(relativePath: string): string {
  return `${MEDIA_ROUTE}/${relativePath}`;
}

export function coverFile(key: string, width: CoverWidth): string {
  return `${key}-${width}.webp`;
}

/** The files behind a stored path: a cover key stands for one file per size. */
export function filesOf(path: string): string[] {
  return path.startsWith('covers/') && !path.includes('.')
    ? COVER_WIDTHS.map((w) => coverFile(path, w))
    : [path];
}

export function coverUrl(key: string, width: CoverWidth = 640): string {
  return mediaUrl(coverFile(key, width));
}

export function coverSrcset(key: string): string {
  return COVER_WIDTHS.map((width) => `${coverUrl(key, width)} ${width}w`).join(', ');
}

/** A clip's URL, signed when its chapter is locked: an `<audio>` element cannot send a token. */
export function clipUrl(links: SignedLinks, path: string, signed: boolean): string {
  return signed ? links.sign('clip', path, mediaUrl(path)).url : mediaUrl(path);
}
