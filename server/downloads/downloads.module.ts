import { Module } from '@nestjs/common';

/** Books to take away: EPUB, M4B, subtitles (docs/formats.md "Downloads"). Helper D1 fills it. */
@Module({})
export class DownloadsModule {}
