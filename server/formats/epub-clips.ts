import { Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import type { MeasuredStore } from './audio-measures';

/** A phrase's clip as it goes into an EPUB: the stored file, or its AAC transcode in the derived store. */
export interface EpubClip {
  store: MeasuredStore;
  key: string;
  ext: 'mp3' | 'm4a';
  mediaType: 'audio/mpeg' | 'audio/mp4';
  /** The decoded length of this very file. */
  decodedUs: number;
}

/** STUB: helper A builds it (docs/formats.md "Clips inside an EPUB"). */
@Injectable()
export class EpubClips {
  /** audio path (phrases.audio_path) → its EPUB clip, transcoding and measuring what is needed. */
  forEpub(audioPaths: readonly string[]): Promise<Map<string, EpubClip>> {
    throw new Error(`not built yet: ${audioPaths.length}`);
  }

  read(clip: EpubClip): Promise<Readable> {
    throw new Error(`not built yet: ${clip.key}`);
  }
}
