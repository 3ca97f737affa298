import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AUDIO_LENGTHS } from '../../platform/media/audio-lengths';
import { AudioMeasure } from './audio-measure.entity';
import { AudioMeasures } from './audio-measures';
import { DerivedSweep } from './derived-sweep';
import { AudiobookBuild } from './audiobook-build.entity';
import { Audiobooks } from './audiobook/audiobooks';
import { EpubClips } from './epub-clips';
import { EpubExport } from './epub/epub-export';
import { MeasureAhead } from './measure-ahead';

/** Books in standard formats: exact clip lengths, EPUB 3 read-along, M4B (docs/formats.md). */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([AudioMeasure, AudiobookBuild])],
  providers: [
    AudioMeasures,
    // What MediaService measures uploads with (platform/media/audio-lengths.ts: the media may not import formats/).
    { provide: AUDIO_LENGTHS, useExisting: AudioMeasures },
    EpubClips,
    EpubExport,
    Audiobooks,
    MeasureAhead,
    DerivedSweep,
  ],
  exports: [AudioMeasures, AUDIO_LENGTHS, EpubClips, EpubExport, Audiobooks, DerivedSweep],
})
export class FormatsModule {}
