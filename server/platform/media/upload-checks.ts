import { registerDecorator, type ValidationArguments } from 'class-validator';
import { parseFile } from 'music-metadata';
import sharp from 'sharp';
import { isUploadedFile } from '../common/uploaded-file.validator';
import { isAudio, isImage, sniffFile, type AudioType } from './sniff';

/**
 * What an uploaded file's content must be, checked on the temp file: by the forms' validation (so that one
 * 422 names every problem, the files' with the fields') and again by MediaService when it takes the file
 * in, which is the one place files enter the media, whoever calls it.
 */

/** Thrown when an upload's bytes are not what its field needs; callers turn it into a 422. */
export class MediaRejectedError extends Error {}

/** A cover larger than this is refused before decoding, so a crafted image cannot exhaust memory. */
export const MAX_COVER_PIXELS = 40_000_000;

export const NOT_AN_IMAGE = 'The cover must be a JPEG, PNG or WebP image.';
export const UNREADABLE_IMAGE =
  'The cover image could not be read. Please upload a valid JPEG, PNG or WebP file.';
const NOT_AUDIO = 'The audio must be an MP3, M4A/AAC, OGG or WAV file.';
export const UNREADABLE_AUDIO = 'The audio file is damaged or not a supported format.';

/** A cover's decoder, as MediaService encodes covers: at most 40 megapixels, any decoding error refused. */
export const coverDecoder = (file: string) =>
  sharp(file, { limitInputPixels: MAX_COVER_PIXELS, failOn: 'error' }).rotate();

/**
 * Why a file cannot be a cover, or null: not an image by its bytes, or one that does not decode whole (a
 * truncated JPEG passes the bytes but not this). Decoded to a thumbnail, so memory stays small.
 */
export async function coverProblem(file: string): Promise<string | null> {
  if (!isImage(await sniffFile(file))) return NOT_AN_IMAGE;
  try {
    await coverDecoder(file).resize(64, 96, { fit: 'cover' }).webp().toBuffer();
    return null;
  } catch {
    return UNREADABLE_IMAGE;
  }
}

/**
 * What an audio file is, by its content, and how long it lasts; a file that is not audio, or that the
 * metadata reader cannot make sense of, is refused with a message an uploader understands.
 */
export async function probeAudioFile(file: string): Promise<{ type: AudioType; durationMs: number | null }> {
  const type = await sniffFile(file);
  if (!isAudio(type)) throw new MediaRejectedError(NOT_AUDIO);
  try {
    const metadata = await parseFile(file, { duration: true, skipCovers: true });
    const seconds = metadata.format.duration;
    return { type, durationMs: seconds && Number.isFinite(seconds) ? Math.round(seconds * 1000) : null };
  } catch {
    throw new MediaRejectedError(UNREADABLE_AUDIO);
  }
}

async function audioProblem(file: string): Promise<string | null> {
  try {
    await probeAudioFile(file);
    return null;
  } catch (error) {
    if (error instanceof MediaRejectedError) return error.message;
    throw error;
  }
}

/**
 * A validation rule on an uploaded file's content. It runs only on a real upload (IsUploadedFile reports
 * anything else), after the field's earlier rules passed, and says why the content was refused; the
 * reason is kept per value, the object class-validator hands to both the check and the message.
 */
function contentRule(name: string, problemOf: (file: string) => Promise<string | null>, fallback: string) {
  const reasons = new WeakMap<object, string>();
  return (): PropertyDecorator => (target, propertyName) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: String(propertyName),
      async: true,
      validator: {
        async validate(value: unknown) {
          if (!isUploadedFile(value)) return true;
          const problem = await problemOf(value.path);
          if (problem) reasons.set(value, problem);
          return problem === null;
        },
        defaultMessage: (args?: ValidationArguments) => {
          const value: unknown = args?.value;
          return (typeof value === 'object' && value !== null && reasons.get(value)) || fallback;
        },
      },
    });
}

/** The field's file must be a cover MediaService can take in (JPEG, PNG or WebP that decodes). */
export const IsCoverImage = contentRule('isCoverImage', coverProblem, NOT_AN_IMAGE);

/** The field's file must be audio MediaService can take in (MP3, M4A/AAC, OGG or WAV that reads). */
export const IsAudioFile = contentRule('isAudioFile', audioProblem, NOT_AUDIO);
