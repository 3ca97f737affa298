import { Module } from '@nestjs/common';

/** OPDS 1.2 catalogue feeds for reading apps (docs/formats.md "OPDS"). Helper D2 fills it. */
@Module({})
export class OpdsModule {}
