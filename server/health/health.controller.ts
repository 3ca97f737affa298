import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../accounts/auth/auth.decorators';
import { HealthAnswer, NotReadyAnswer, ReadyAnswer } from './health-responses';
import { ReadinessChecks } from './readiness-checks';

@Public()
@Controller('health')
export class HealthController {
  constructor(private readonly checks: ReadinessChecks) {}

  /** Liveness: the process answers. Costs nothing, touches nothing. */
  @Get()
  @ApiOkResponse({ type: HealthAnswer })
  check(): HealthAnswer {
    return { status: 'ok' };
  }

  /**
   * Readiness, for a load balancer: the database and the media store both answer. 503 when either is
   * down, naming which, so the balancer stops sending this instance requests it cannot serve.
   */
  @Get('ready')
  @HttpCode(200)
  @ApiOkResponse({ type: ReadyAnswer })
  @ApiServiceUnavailableResponse({
    type: NotReadyAnswer,
    description: 'The database or the media store is down.',
  })
  async ready(@Res({ passthrough: true }) res: Response): Promise<ReadyAnswer | NotReadyAnswer> {
    res.setHeader('Cache-Control', 'no-store');
    const checks = await this.checks.run();
    const down = Object.entries(checks)
      .filter(([, state]) => state !== 'ok')
      .map(([name]) => name);
    if (!down.length) return { status: 'ok', checks };
    // Set here rather than thrown: the error filter keeps only `message`, and the balancer's operator wants
    // to see which check failed.
    res.status(503);
    return { message: `Not ready: ${down.join(' and ')} unavailable.`, checks };
  }
}
