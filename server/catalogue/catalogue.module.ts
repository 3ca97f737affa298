import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Book } from '../books/book.entity';
import { CatalogueService } from './catalogue.service';
import { GuestController } from './guest.controller';
import { CatalogueEvents } from './catalogue-events';
import { CatalogueBroadcast } from './catalogue-broadcast';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([Book])],
  controllers: [GuestController],
  providers: [CatalogueService, CatalogueEvents, CatalogueBroadcast],
  exports: [CatalogueService, CatalogueEvents],
})
export class CatalogueModule {}
