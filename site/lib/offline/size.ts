/**
 * A size as the download button and /downloads show it: whole kilobytes below a megabyte (a short chapter
 * is a few dozen KB, which "0.0 MB" hid), megabytes with one decimal from there.
 */
const KB = 1024;
const MB = KB * KB;

export function formatSize(bytes: number): string {
  const kb = Math.round(bytes / KB);
  return kb < KB ? `${kb} KB` : `${(bytes / MB).toFixed(1)} MB`;
}
