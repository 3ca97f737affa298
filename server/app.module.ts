import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AppConfig } from './platform/config';
import { ConfigModule } from './platform/config.module';
import { dataSourceOptions } from './platform/database/data-source';
import { ErrorFilter } from './http/error.filter';
import { createValidationPipe, ObjectBodyPipe } from './http/validation';
import { MediaModule } from './platform/media/media.module';
import { CatalogueModule } from './content/catalogue/catalogue.module';
import { HealthController } from './health/health.controller';
import { ReadinessChecks } from './health/readiness-checks';
import { SeedModule } from './seed/seed.module';
import { AuthModule } from './accounts/auth/auth.module';
import { UsersModule } from './accounts/users/users.module';
import { MailModule } from './platform/mail/mail.module';
import { AdminModule } from './publishing/admin/admin.module';
import { BooksModule } from './publishing/books/books.module';
import { BillingModule } from './accounts/billing/billing.module';
import { AccessModule } from './content/access/access.module';
import { ReadingModule } from './learning/reading/reading.module';
import { WordsModule } from './learning/words/words.module';
import { ListeningModule } from './learning/listening/listening.module';
import { ImportsModule } from './publishing/imports/imports.module';
import { InsightsModule } from './learning/insights/insights.module';
import { PracticeModule } from './learning/practice/practice.module';
import { FormatsModule } from './publishing/formats/formats.module';
import { AppPasswordsModule } from './accounts/app-passwords/app-passwords.module';
import { DownloadsModule } from './publishing/downloads/downloads.module';
import { OpdsModule } from './publishing/opds/opds.module';
import { DictionariesModule } from './content/dictionaries/dictionaries.module';
import { WordFormsModule } from './content/word-forms/word-forms.module';
import { LookupModule } from './learning/lookup/lookup.module';
import { WordStatusModule } from './learning/word-status/word-status.module';
import { SetupModule } from './accounts/setup/setup.module';
import { AuthGuard } from './accounts/auth/auth.guard';
import { InstanceLock } from './platform/database/instance-lock';
import { RateLimitGuard } from './http/rate-limit';
import { MultipartInterceptor } from './http/body/multipart.interceptor';
import { BodyInterceptor } from './http/body/body.interceptor';
import { PageCache } from './http/page-cache';
import { ConnectionsOnShutdown } from './http/keep-alive';
import { ShutdownLog } from './http/boot-log';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, instanceLock: InstanceLock): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        // prepareDatabase() has just connected and migrated: a failure now is not worth retrying.
        TypeOrmModule.forRoot({ ...dataSourceOptions(config), retryAttempts: 0 }),
        MediaModule,
        CatalogueModule,
        MailModule,
        AuthModule,
        UsersModule,
        AdminModule,
        BooksModule,
        BillingModule,
        AccessModule,
        ReadingModule,
        WordsModule,
        ListeningModule,
        ImportsModule,
        InsightsModule,
        PracticeModule,
        FormatsModule,
        AppPasswordsModule,
        DownloadsModule,
        OpdsModule,
        DictionariesModule,
        WordFormsModule,
        LookupModule,
        WordStatusModule,
        SetupModule,
        SeedModule,
      ],
      controllers: [HealthController],
      providers: [
        { provide: InstanceLock, useValue: instanceLock },
        // A log line when the process stops (http/boot-log.ts).
        ShutdownLog,
        // A stop never waits 65 s on a kept-alive connection (http/keep-alive.ts).
        ConnectionsOnShutdown,
        ReadinessChecks,
        // Public pages and guest answers, cleared on every catalogue change (server/http/create-app.ts).
        { provide: PageCache, useValue: new PageCache(config.pageCacheMb * 1024 * 1024) },
        { provide: APP_FILTER, useClass: ErrorFilter },
        // Rate limits first, so that floods are refused before any token or password work.
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_GUARD, useClass: AuthGuard },
        // Bodies are read here, after the guards: a refused request never has its body read.
        { provide: APP_INTERCEPTOR, useClass: BodyInterceptor },
        { provide: APP_INTERCEPTOR, useClass: MultipartInterceptor },
        { provide: APP_PIPE, useClass: ObjectBodyPipe },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
    };
  }
}
