import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThanOrEqual, type Repository } from 'typeorm';
import { Clock } from '../../platform/common/clock';
import { sentLaterTime } from '../../platform/common/sent-later';
import { dateFromDb } from '../../platform/database/db-dates';
import { Appearance } from './appearance.entity';
import type {
  AppearanceAnswer,
  AppearanceDto,
  AppearanceResponse,
  AppearanceSaveAnswer,
  Theme,
} from './appearance.dto';
import type { User } from './user.entity';

const KEPT = 'A later choice was made on another device: it is kept.';

const toResponse = (row: Appearance): AppearanceResponse => ({
  theme: row.theme as Theme,
  text_size: row.textSize,
  line_spacing: row.lineSpacing,
  updated_at: dateFromDb(row.updatedAt).toISOString(),
});

/**
 * A member's theme and reading settings (docs/design.md, "Themes and reading settings"). Each device keeps
 * its own copy and sends a change with the time it was made; the later choice wins, as the reading
 * speed does (server/learning/reading/progress.service.ts).
 */
@Injectable()
export class AppearanceService {
  constructor(
    @InjectRepository(Appearance) private readonly rows: Repository<Appearance>,
    private readonly clock: Clock,
  ) {}

  async get(user: User): Promise<AppearanceAnswer> {
    const row = await this.rows.findOneBy({ userId: user.id });
    return { data: row ? toResponse(row) : null };
  }

  /**
   * Keeps the choice unless the member made a later one elsewhere. The condition is in the UPDATE, and
   * the primary key decides a first save, so two devices racing on a pool leave the later choice.
   */
  async save(user: User, dto: AppearanceDto): Promise<AppearanceSaveAnswer> {
    const now = this.clock.now();
    const at = dto.at == null ? now : sentLaterTime(new Date(dto.at), now, 'The time of the choice');
    const values = {
      theme: dto.theme,
      textSize: dto.text_size,
      lineSpacing: dto.line_spacing,
      updatedAt: at,
    };
    const update = () => this.rows.update({ userId: user.id, updatedAt: LessThanOrEqual(at) }, values);
    if (!(await update()).affected) {
      await this.rows
        .createQueryBuilder()
        .insert()
        .values({ userId: user.id, ...values })
        .orIgnore()
        .execute();
      await update();
    }
    const data = toResponse(await this.rows.findOneByOrFail({ userId: user.id }));
    return Date.parse(data.updated_at) > at.getTime() ? { data, kept: true, message: KEPT } : { data };
  }
}
