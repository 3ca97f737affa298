import { Global, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { MediaService } from './media.service';

@Global()
@Module({
  providers: [MediaService],
  exports: [MediaService],
})
export class MediaModule implements OnApplicationBootstrap {
  constructor(
    private readonly media: MediaService,
    private readonly db: DataSource,
  ) {}

  /** Clears leftovers of aborted uploads and crashes before the first request arrives. */
  async onApplicationBootstrap(): Promise<void> {
    const rows: Array<{ path: string }> = await this.db.query(
      `SELECT cover_path AS path FROM books UNION ALL SELECT sample_audio_path FROM books
       UNION ALL SELECT audio_path FROM phrases`,
    );
    await this.media.sweep(rows.map((row) => row.path));
  }
}
