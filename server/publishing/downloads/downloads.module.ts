import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { User } from '../../accounts/users/user.entity';
import { AudiobookDownload } from './audiobook-download';
import { DownloadChecks } from './download-checks';
import { DownloadAccess } from './download-access';
import { DownloadsController } from './downloads.controller';
import { DownloadsService } from './downloads.service';

/**
 * Books to take away: EPUB, M4B, subtitles (docs/formats.md "Downloads"). Their answers are private:
 * `privateNoStore` (private-no-store.ts) is mounted on the path in http/create-app.ts.
 */
@Module({
  imports: [TypeOrmModule.forFeature([User])],
  controllers: [DownloadsController],
  providers: [DownloadsService, DownloadAccess, DownloadChecks, AudiobookDownload],
})
export class DownloadsModule {}
