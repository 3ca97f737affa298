export declare function findFfmpeg(options?: {
  timeoutMs?: number;
  attempts?: number;
}): { bin: string; problem?: undefined } | { bin?: undefined; problem: string };
export declare const FFMPEG_HINT: string;
