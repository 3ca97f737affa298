import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AppConfig } from './config';
import { ConfigModule } from './config.module';
import { dataSourceOptions } from './database/data-source';
import { ErrorFilter } from './common/error.filter';
import { createValidationPipe } from './common/validation';
import { MediaModule } from './media/media.module';
import { CatalogueModule } from './catalogue/catalogue.module';
import { HealthController } from './health/health.controller';
import { SeedModule } from './seed/seed.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        TypeOrmModule.forRoot(dataSourceOptions(config.storageDir)),
        MediaModule,
        CatalogueModule,
        SeedModule,
      ],
      controllers: [HealthController],
      providers: [
        { provide: APP_FILTER, useClass: ErrorFilter },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
    };
  }
}
