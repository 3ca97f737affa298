import { Module } from '@nestjs/common';
import { SetupController } from './setup.controller';
import { SetupService } from './setup.service';

/** The first run: a setup code at boot and the wizard that uses it (docs/deploy.md, "First run"). */
@Module({ controllers: [SetupController], providers: [SetupService], exports: [SetupService] })
export class SetupModule {}
