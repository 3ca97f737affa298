import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { User } from '../users/user.entity';
import { AppPassword } from './app-password.entity';
import { AppPasswordsController } from './app-passwords.controller';
import { AppPasswords } from './app-passwords.service';
import { ReadingAppGuard } from './reading-app-auth';

/**
 * App passwords and the guard that reads them (docs/formats.md "App passwords"). Global, so that the
 * OPDS and download controllers' `@ReadingAppAuth()` finds the guard's parts from their own modules.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([AppPassword, User])],
  controllers: [AppPasswordsController],
  providers: [AppPasswords, ReadingAppGuard],
  exports: [AppPasswords, ReadingAppGuard],
})
export class AppPasswordsModule {}
