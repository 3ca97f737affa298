import { Module } from '@nestjs/common';
import { OpdsController } from './opds.controller';
import { OpdsCovers } from './opds-covers';
import { OpdsService } from './opds.service';

/** OPDS 1.2 catalogue feeds for reading apps (docs/formats.md "OPDS 1.2"). */
@Module({
  controllers: [OpdsController],
  providers: [OpdsService, OpdsCovers],
})
export class OpdsModule {}
