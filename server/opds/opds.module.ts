import { Module } from '@nestjs/common';
import { OpdsController } from './opds.controller';
import { OpdsService } from './opds.service';

/** OPDS 1.2 catalogue feeds for reading apps (docs/formats.md "OPDS 1.2"). */
@Module({
  controllers: [OpdsController],
  providers: [OpdsService],
})
export class OpdsModule {}
