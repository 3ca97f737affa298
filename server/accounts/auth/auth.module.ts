import { Global, Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { JwtStrategy } from './jwt.strategy';
import { User } from '../users/user.entity';
import { Clock } from '../../platform/common/clock';
import { RateWindows } from '../../platform/common/rate-windows';
import { SignedLinks } from '../../platform/common/signed-links';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { PasswordRecoveryService } from './password-recovery.service';
import { PasswordResetToken } from './password-reset-token.entity';
import { DeviceTokens } from './device-tokens.service';
import { SessionTokens } from './session-tokens.service';

@Global()
@Module({
  // Secrets are passed per call (the session secret, or a key derived from it for device tokens).
  imports: [TypeOrmModule.forFeature([User, PasswordResetToken]), JwtModule.register({}), PassportModule],
  controllers: [AuthController],
  providers: [
    AuthService,
    PasswordRecoveryService,
    SessionTokens,
    DeviceTokens,
    JwtStrategy,
    Clock,
    RateWindows,
    // Links that carry their own permission (clips, import previews, exports): platform/common/signed-links.ts.
    SignedLinks,
  ],
  exports: [SessionTokens, Clock, RateWindows, SignedLinks, TypeOrmModule],
})
export class AuthModule {}
