import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { User } from '../users/user.entity';
import { Clock } from '../common/clock';
import { RateWindows } from '../common/rate-limit';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { PasswordRecoveryService } from './password-recovery.service';
import { PasswordResetToken } from './password-reset-token.entity';
import { DeviceTokens } from './device-tokens.service';
import { SessionTokens } from './session-tokens.service';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([User, PasswordResetToken])],
  controllers: [AuthController],
  providers: [AuthService, PasswordRecoveryService, SessionTokens, DeviceTokens, Clock, RateWindows],
  exports: [SessionTokens, Clock, RateWindows, TypeOrmModule],
})
export class AuthModule {}
