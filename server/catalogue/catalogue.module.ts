import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Book } from '../books/book.entity';
import { CatalogueService } from './catalogue.service';
import { GuestController } from './guest.controller';

@Module({
  imports: [TypeOrmModule.forFeature([Book])],
  controllers: [GuestController],
  providers: [CatalogueService],
  exports: [CatalogueService],
})
export class CatalogueModule {}
