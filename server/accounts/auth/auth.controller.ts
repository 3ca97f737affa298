import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { MessageAnswer } from '../../platform/common/answers';
import { Public } from './auth.decorators';
import { RateLimit } from '../../http/rate-limit';
import { LoginDto, RecoveryRequestDto, ResetPasswordDto, SignupDto, VerifyTokenDto } from './auth.dto';
import { LoginAnswer, SignupAnswer } from './auth-responses';
import { AuthService } from './auth.service';
import { PasswordRecoveryService } from './password-recovery.service';

/**
 * Sign-up, sign-in and password recovery. The recovery calls keep the original GET form (docs/product.md section 7) with query strings
 * and also accept POST, which the site uses so that passwords never travel in URLs.
 */
@Public()
@Controller('user')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly recovery: PasswordRecoveryService,
  ) {}

  @Post('signup')
  @HttpCode(200)
  @RateLimit('signup')
  @ApiOkResponse({ type: SignupAnswer })
  signup(@Body() dto: SignupDto) {
    return this.auth.signup(dto);
  }

  @Post('login')
  @HttpCode(200)
  @RateLimit('login')
  @ApiOkResponse({ type: LoginAnswer })
  login(@Body() dto: LoginDto) {
    return this.auth.login(dto);
  }

  @Get('password-recovery-token')
  @RateLimit('recovery')
  @ApiOkResponse({ type: MessageAnswer })
  requestToken(@Query() dto: RecoveryRequestDto) {
    return this.recovery.requestToken(dto.email);
  }

  @Post('password-recovery-token')
  @HttpCode(200)
  @RateLimit('recovery')
  @ApiOkResponse({ type: MessageAnswer })
  requestTokenByPost(@Body() dto: RecoveryRequestDto) {
    return this.recovery.requestToken(dto.email);
  }

  @Get('verify-password-recovery-token')
  @RateLimit('recovery')
  @ApiOkResponse({ type: MessageAnswer })
  verifyToken(@Query() dto: VerifyTokenDto) {
    return this.recovery.verifyToken(dto.verification_token);
  }

  @Post('verify-password-recovery-token')
  @HttpCode(200)
  @RateLimit('recovery')
  @ApiOkResponse({ type: MessageAnswer })
  verifyTokenByPost(@Body() dto: VerifyTokenDto) {
    return this.recovery.verifyToken(dto.verification_token);
  }

  @Get('reset-password-using-token')
  @RateLimit('recovery')
  @ApiOkResponse({ type: MessageAnswer })
  resetPassword(@Query() dto: ResetPasswordDto) {
    return this.recovery.resetPassword(dto.verification_token, dto.password);
  }

  @Post('reset-password-using-token')
  @HttpCode(200)
  @RateLimit('recovery')
  @ApiOkResponse({ type: MessageAnswer })
  resetPasswordByPost(@Body() dto: ResetPasswordDto) {
    return this.recovery.resetPassword(dto.verification_token, dto.password);
  }
}
